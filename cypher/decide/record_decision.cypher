// purpose: record one decision with everything that explains it, in one statement: the
//   Decision node, CONSIDERED its observations (now marked processed), HAS_STEP{order} its
//   ReasoningStep nodes chained by NEXT, RECALLED the past decisions recall showed it,
//   MATCHED its Pattern, USED its ActionTemplate, IN_EPISODE its episode, APPLIED the
//   heuristics its DECIDE step named of those its prompt showed (their usage counted),
//   SUPERSEDES a waiting decision it re-decided, one more use of the Frame it was
//   framed in (seed 004's usage_count), and, for a dry run's ACT, the ended Execution of
//   its one attempt (EXECUTED_AS; the decision's map then holds its settlement already:
//   nothing ran, so nothing happens between the decision and the dry run's end). An
//   escalation is Consequential from the start (found by words, migration 021).
// params: $decision (map of Decision properties, id and agent_id included), $observation_ids,
//   $steps (list of maps of ReasoningStep properties, each with order), $recalled_ids,
//   $pattern (map {id, key} or null), $template (map {id, name, version, target} or null),
//   $episode_id (or null), $heuristic_ids, $superseded_ids, $superseded (the status
//   value for them), $frame (a frame name or null), $execution (map of a dry run's ended
//   Execution properties, or null)
// returns: id of the decision
// note: the decision is created here, so its relationships are CREATEd, not MERGEd: a MERGE
//   looks through the other node's relationships (every RECALLED past decision's, the
//   Pattern's MATCHED) for one a new node cannot have; each id list is made distinct first.
CREATE (d:Decision)
SET d = $decision
WITH d
CALL (d) {
  WITH d WHERE d.type = "escalate"
  SET d:Consequential
}
CALL (d) {
  UNWIND $observation_ids AS oid
  WITH DISTINCT d, oid
  MATCH (o:Observation {id: oid})
  SET o.processed = true
  CREATE (d)-[:CONSIDERED]->(o)
}
CALL (d) {
  UNWIND $steps AS step
  CREATE (s:ReasoningStep)
  SET s = step
  CREATE (d)-[:HAS_STEP {order: step.order}]->(s)
  WITH s ORDER BY s.order
  WITH collect(s) AS ordered
  UNWIND range(0, size(ordered) - 2) AS i
  WITH ordered[i] AS a, ordered[i + 1] AS b
  CREATE (a)-[:NEXT]->(b)
}
CALL (d) {
  UNWIND $recalled_ids AS rid
  WITH DISTINCT d, rid
  MATCH (past:Decision {id: rid})
  CREATE (d)-[:RECALLED]->(past)
}
CALL (d) {
  WITH d WHERE $pattern IS NOT NULL
  MERGE (p:Pattern {agent_id: d.agent_id, key: $pattern.key})
    ON CREATE SET p.id = $pattern.id, p.at = d.at, p.total = 0, p.successes = 0,
                  p.avg_confidence = 0.0
  CREATE (d)-[:MATCHED]->(p)
}
CALL (d) {
  WITH d WHERE $template IS NOT NULL
  MERGE (t:ActionTemplate {agent_id: d.agent_id, name: $template.name,
                           version: $template.version})
    ON CREATE SET t.id = $template.id, t.at = d.at, t.target = $template.target
  CREATE (d)-[:USED]->(t)
}
CALL (d) {
  WITH d WHERE $episode_id IS NOT NULL
  MATCH (e:Episode {id: $episode_id})
  CREATE (d)-[:IN_EPISODE]->(e)
}
CALL (d) {
  UNWIND $heuristic_ids AS hid
  WITH DISTINCT d, hid
  MATCH (h:Heuristic {id: hid})
  SET h.usage_count = coalesce(h.usage_count, 0) + 1, h.last_used = d.at
  CREATE (d)-[:APPLIED]->(h)
}
CALL (d) {
  UNWIND $superseded_ids AS sid
  WITH DISTINCT d, sid
  MATCH (old:Decision {id: sid})
  SET old.status = $superseded
  CREATE (d)-[:SUPERSEDES]->(old)
}
CALL (d) {
  WITH d WHERE $frame IS NOT NULL
  MATCH (f:Frame {agent_id: d.agent_id, name: $frame})
  SET f.usage_count = coalesce(f.usage_count, 0) + 1, f.last_used = d.at
}
CALL (d) {
  WITH d WHERE $execution IS NOT NULL
  CREATE (x:Execution)
  SET x = $execution
  CREATE (d)-[:EXECUTED_AS]->(x)
}
RETURN d.id AS id
