// purpose: the statistics of the patterns with the given keys ("category:type:decision:template")
// params: $agent_id, $keys (list of pattern keys)
// returns: one row: patterns (list of maps {id, at, key, total, successes,
//   avg_confidence, last_used}), most used first
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
// note: the hint keeps a seek on (agent_id, key): the index on key alone, or a scan of this
//   one, would read every agent's patterns.
MATCH (p:Pattern)
USING INDEX SEEK p:Pattern(agent_id, key)
WHERE p.agent_id = $agent_id AND p.key IN $keys
WITH p
ORDER BY p.total DESC, p.key
RETURN collect(p {.id, at: toString(p.at), .key, .total, .successes, .avg_confidence,
                  last_used: toString(p.last_used)}) AS patterns
