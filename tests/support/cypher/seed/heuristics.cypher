// purpose: test fixture: Heuristic nodes, as RSI will crystallize them
// params: $agent_id, $rows (maps {id, at, domain, content, usage_count, status})
// returns: id per heuristic
UNWIND $rows AS row
CREATE (h:Heuristic)
SET h = row, h.agent_id = $agent_id
RETURN h.id AS id
