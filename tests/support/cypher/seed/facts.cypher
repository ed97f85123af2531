// purpose: test fixture: Fact nodes
// params: $agent_id, $rows (maps {id, at, content, confirmations})
// returns: id per fact
UNWIND $rows AS row
CREATE (f:Fact)
SET f = row, f.agent_id = $agent_id
RETURN f.id AS id
