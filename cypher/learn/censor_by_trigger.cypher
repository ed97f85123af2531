// purpose: the active censor with exactly this trigger (to fire it instead of filing a twin)
// params: $agent_id, $trigger
// returns: censor (map of the Censor's properties), at most one row, the oldest
// mode: read
MATCH (c:Censor)
WHERE c.agent_id = $agent_id AND c.trigger_pattern = $trigger AND c.status = "active"
RETURN properties(c) AS censor
ORDER BY c.at
LIMIT 1
