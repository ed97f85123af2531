// purpose: the active censor learned from this tool call (to fire it instead of filing a twin)
// params: $agent_id, $call_key (see cognition.monitor.calls.call_key)
// returns: censor (map of the Censor's properties), at most one row, the oldest
// mode: read
MATCH (c:Censor)
WHERE c.agent_id = $agent_id AND c.call_key = $call_key AND c.status = "active"
RETURN properties(c) AS censor
ORDER BY c.at
LIMIT 1
