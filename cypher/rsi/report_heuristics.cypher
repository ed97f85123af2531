// purpose: every heuristic (candidate, active, rejected, pruned) with its usage, credit and
//   its latest trial's verdict: the report's list
// params: $agent_id
// returns: heuristic (map {id, domain, content, status, usage_count, helpful, harmful,
//   confirmations, at, pruned_at, prune_reason, trial_summary}), active first, then oldest
//   first
// mode: read
MATCH (h:Heuristic)
USING INDEX h:Heuristic(agent_id, at)
WHERE h.agent_id = $agent_id AND h.at IS NOT NULL
RETURN h {.id, .domain, .content, .status, .at, .pruned_at, .prune_reason, .trial_summary,
          usage_count: coalesce(h.usage_count, 0), helpful: coalesce(h.helpful, 0),
          harmful: coalesce(h.harmful, 0), confirmations: coalesce(h.confirmations, 0)}
       AS heuristic
ORDER BY CASE h.status WHEN "active" THEN 0 ELSE 1 END, h.at, h.id
