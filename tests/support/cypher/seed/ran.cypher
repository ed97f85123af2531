// purpose: test fixture: decisions whose action ran for real, labelled as start_execution
//   leaves them (Consequential: found by words, migration 021)
// params: $agent_id, $rows (maps {decision_id})
// returns: id per decision labelled
UNWIND $rows AS row
MATCH (d:Decision {id: row.decision_id, agent_id: $agent_id})
SET d:Consequential
RETURN d.id AS id
