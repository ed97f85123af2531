// purpose: test fixture: Goal nodes, completed or not
// params: $agent_id, $rows (maps {id, at, description, priority, completed_at})
// returns: id per goal
UNWIND $rows AS row
CREATE (g:Goal)
SET g = row, g.agent_id = $agent_id
RETURN g.id AS id
