// purpose: the active censors, severity "block" before "warn", then the most fired first
// params: $agent_id, $limit
// returns: one row: censors (list of maps {id, at, trigger_pattern, reason,
//   severity, status, fire_count, last_fired_at})
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
MATCH (c:Censor)
USING INDEX SEEK c:Censor(agent_id, status)
WHERE c.agent_id = $agent_id AND c.status = "active"
WITH c
ORDER BY CASE c.severity WHEN "block" THEN 0 ELSE 1 END, coalesce(c.fire_count, 0) DESC, c.at
LIMIT $limit
RETURN collect(c {.id, at: toString(c.at), .trigger_pattern, .reason, .status,
                  last_fired_at: toString(c.last_fired_at),
                  severity: coalesce(c.severity, "warn"),
                  fire_count: coalesce(c.fire_count, 0)}) AS censors
