// purpose: test fixture: Lesson nodes LEARNED_FROM their decision (decision_id kept off the
//   node, so recall must find it through the relationship)
// params: $agent_id, $rows (maps {id, at, decision_id, type, pattern_key, adjustment, reason})
// returns: id per lesson
UNWIND $rows AS row
MATCH (d:Decision {id: row.decision_id})
CREATE (l:Lesson)
SET l = row, l.agent_id = $agent_id
REMOVE l.decision_id
CREATE (l)-[:LEARNED_FROM]->(d)
RETURN l.id AS id
