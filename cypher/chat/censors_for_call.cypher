// purpose: the censor gate: the active censors learned from this very tool call (the same tool
//   and the same whole input, normalised: see cognition.monitor.calls.call_key), block first
// params: $agent_id, $call_key, $limit
// returns: censor (map of the Censor's properties), one row per censor
// mode: read
MATCH (c:Censor)
// The hint keeps the seek whatever the statistics say (censors of old agents without a call_key
// once made the planner scan the (agent_id, call_key) index instead).
USING INDEX c:Censor(agent_id, call_key)
WHERE c.agent_id = $agent_id AND c.call_key = $call_key AND c.status = "active"
RETURN properties(c) AS censor
ORDER BY CASE c.severity WHEN "block" THEN 0 ELSE 1 END, c.fire_count DESC
LIMIT $limit
