// purpose: write lessons drawn from one decision's outcome (seed 000 section 5.2), each
//   LEARNED_FROM its decision; a lesson whose decision does not exist is not written
// params: $agent_id, $rows (list of maps of Lesson properties, decision_id included)
// returns: id per lesson written
UNWIND $rows AS row
MATCH (d:Decision {id: row.decision_id})
WHERE d.agent_id = $agent_id
CREATE (l:Lesson)
SET l = row
CREATE (l)-[:LEARNED_FROM]->(d)
RETURN l.id AS id
