// purpose: the goals not yet completed, most important first
// params: $agent_id, $limit
// returns: one row: goals (list of maps {id, at, description, priority})
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
// note: "completed_at IS NULL" cannot be read from an index (nulls are not indexed), so the
//   (agent_id, at) index is used, with "g.at IS NOT NULL" as the predicate it needs; an
//   agent has few goals.
MATCH (g:Goal)
USING INDEX SEEK g:Goal(agent_id, at)
WHERE g.agent_id = $agent_id AND g.at IS NOT NULL AND g.completed_at IS NULL
WITH g
ORDER BY CASE g.priority WHEN "critical" THEN 0 WHEN "high" THEN 1 WHEN "medium" THEN 2
         WHEN "low" THEN 3 ELSE 2 END, g.at
LIMIT $limit
RETURN collect(g {.id, at: toString(g.at), .description,
                  priority: coalesce(g.priority, "medium")}) AS goals
