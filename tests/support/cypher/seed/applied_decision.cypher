// purpose: test fixture: one Decision that APPLIED the given heuristics
// params: $agent_id, $rows (maps {id, at, heuristic_ids})
// returns: id of each decision
UNWIND $rows AS row
CREATE (d:Decision {id: row.id, agent_id: $agent_id, at: row.at, type: "act", confidence: 0.8})
WITH d, row
CALL (d, row) {
  UNWIND row.heuristic_ids AS hid
  MATCH (h:Heuristic {id: hid})
  MERGE (d)-[:APPLIED]->(h)
}
RETURN d.id AS id
