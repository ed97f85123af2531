// purpose: test fixture: APPLIED relationships from decisions to heuristics
// params: $agent_id, $rows (maps {id, at, decision_id, heuristic_id}; id and at unused)
// returns: id per relationship written (the decision's id)
UNWIND $rows AS row
MATCH (d:Decision {id: row.decision_id}), (h:Heuristic {id: row.heuristic_id})
MERGE (d)-[:APPLIED]->(h)
RETURN d.id AS id
