// purpose: one pattern's statistics by key
// params: $agent_id, $key
// returns: pattern (map of the Pattern's properties); no row when there is no such pattern
// mode: read
MATCH (p:Pattern {agent_id: $agent_id, key: $key})
RETURN properties(p) AS pattern
