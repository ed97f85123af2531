// purpose: the most used patterns whose key starts with a prefix ("intake:" for a category)
// params: $agent_id, $prefix, $limit
// returns: one row: patterns (list of maps {id, at, key, total, successes,
//   avg_confidence, last_used}), most used first
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
MATCH (p:Pattern)
USING INDEX SEEK p:Pattern(agent_id, key)
WHERE p.agent_id = $agent_id AND p.key STARTS WITH $prefix
WITH p
ORDER BY p.total DESC, p.key
LIMIT $limit
RETURN collect(p {.id, at: toString(p.at), .key, .total, .successes, .avg_confidence,
                  last_used: toString(p.last_used)}) AS patterns
