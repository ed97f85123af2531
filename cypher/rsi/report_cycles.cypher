// purpose: the latest RSI cycles (not prune job runs), newest first, with their counts:
//   the windows `python -m rsi report` breaks its figures into
// params: $agent_id, $limit
// returns: cycle (map of the RSICycle's properties), one row each, newest first
// mode: read
MATCH (c:RSICycle)
WHERE c.agent_id = $agent_id AND c.at IS NOT NULL AND coalesce(c.kind, "cycle") = "cycle"
RETURN properties(c) AS cycle
ORDER BY c.at DESC
LIMIT $limit
