// purpose: the agent's active censors for a prompt: block before warn, then the most fired and
//   the most recent first (seed 004: "always, severity=block first")
// params: $agent_id, $limit
// returns: censor (map of the Censor's properties), one row per censor
// mode: read
MATCH (c:Censor)
WHERE c.agent_id = $agent_id AND c.status = "active"
RETURN properties(c) AS censor
ORDER BY CASE c.severity WHEN "block" THEN 0 ELSE 1 END, c.fire_count DESC, c.at DESC
LIMIT $limit
