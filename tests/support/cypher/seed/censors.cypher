// purpose: test fixture: Censor nodes, as the learning write path will store them
// params: $agent_id, $rows (maps {id, at, trigger_pattern, reason, severity, status, fire_count})
// returns: id per censor
UNWIND $rows AS row
CREATE (c:Censor)
SET c = row, c.agent_id = $agent_id
RETURN c.id AS id
