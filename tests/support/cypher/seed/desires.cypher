// purpose: test fixture: Desire nodes (status, rejection_reason …), as part 1 records them
// params: $agent_id, $rows (maps of Desire properties)
// returns: id per desire
UNWIND $rows AS row
CREATE (d:Desire)
SET d = row, d.agent_id = $agent_id
RETURN d.id AS id
