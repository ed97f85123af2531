// purpose: desires with their provenance (seed 003 E1, E2): each EXPRESSED by its reflection
//   (when it has one) and INFLUENCED_BY the exact nodes it was shown and cites, by label
// params: $agent_id, $rows (list of maps {desire: Desire properties, reflection_id or null,
//   sources: map label -> list of ids, labels Decision, Execution, Escalation, Censor,
//   Lesson, Pattern})
// returns: id per desire written, and how many INFLUENCED_BY links it got
UNWIND $rows AS row
CREATE (d:Desire)
SET d = row.desire
WITH d, row
CALL (d, row) {
  MATCH (r:Reflection {id: row.reflection_id})
  WHERE r.agent_id = $agent_id
  CREATE (r)-[:EXPRESSED]->(d)
}
CALL (d, row) {
  UNWIND coalesce(row.sources.Decision, []) AS sid
  MATCH (n:Decision {id: sid}) WHERE n.agent_id = $agent_id
  CREATE (d)-[:INFLUENCED_BY]->(n)
  RETURN count(*) AS n
  UNION ALL
  UNWIND coalesce(row.sources.Execution, []) AS sid
  MATCH (n:Execution {id: sid}) WHERE n.agent_id = $agent_id
  CREATE (d)-[:INFLUENCED_BY]->(n)
  RETURN count(*) AS n
  UNION ALL
  UNWIND coalesce(row.sources.Escalation, []) AS sid
  MATCH (n:Escalation {id: sid}) WHERE n.agent_id = $agent_id
  CREATE (d)-[:INFLUENCED_BY]->(n)
  RETURN count(*) AS n
  UNION ALL
  UNWIND coalesce(row.sources.Censor, []) AS sid
  MATCH (n:Censor {id: sid}) WHERE n.agent_id = $agent_id
  CREATE (d)-[:INFLUENCED_BY]->(n)
  RETURN count(*) AS n
  UNION ALL
  UNWIND coalesce(row.sources.Lesson, []) AS sid
  MATCH (n:Lesson {id: sid}) WHERE n.agent_id = $agent_id
  CREATE (d)-[:INFLUENCED_BY]->(n)
  RETURN count(*) AS n
  UNION ALL
  UNWIND coalesce(row.sources.Pattern, []) AS sid
  MATCH (n:Pattern {id: sid}) WHERE n.agent_id = $agent_id
  CREATE (d)-[:INFLUENCED_BY]->(n)
  RETURN count(*) AS n
}
RETURN d.id AS id, sum(n) AS linked
