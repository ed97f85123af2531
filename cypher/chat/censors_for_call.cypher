// purpose: the censor gate: the active censors learned from a tool call like this one, whose
//   trigger starts with the call's description ("Avoid using Bash when called with …"),
//   block before warn
// params: $agent_id, $prefix (the call's description, see cognition.monitor.tool_call_prefix),
//   $limit
// returns: censor (map of the Censor's properties), one row per censor
// mode: read
MATCH (c:Censor)
WHERE c.agent_id = $agent_id AND c.trigger_pattern STARTS WITH $prefix AND c.status = "active"
RETURN properties(c) AS censor
ORDER BY CASE c.severity WHEN "block" THEN 0 ELSE 1 END, c.fire_count DESC
LIMIT $limit
