// purpose: test fixture: Claude Code Turn nodes as the hooks leave them once closed
// params: $agent_id, $rows (maps {id, at, session_id, prompt, response, status, ended_at})
// returns: id per turn
UNWIND $rows AS row
CREATE (t:Turn)
SET t = row, t.agent_id = $agent_id
RETURN t.id AS id
