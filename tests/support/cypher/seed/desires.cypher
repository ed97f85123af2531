// purpose: test fixture: Desire nodes, as RSI's reflection will write them
// params: $agent_id, $rows (maps {id, at, description, intensity, domain, origin, status})
// returns: id per desire
UNWIND $rows AS row
CREATE (s:Desire)
SET s = row, s.agent_id = $agent_id
RETURN s.id AS id
