// purpose: the strategies RSI prompts carry (seed 003 A1): active heuristics, the
//   most used first
// params: $agent_id, $limit
// returns: one row: strategies (list of maps {id, domain, content, usage_count})
// mode: read
MATCH (h:Heuristic)
USING INDEX SEEK h:Heuristic(agent_id, status)
WHERE h.agent_id = $agent_id AND h.status = "active"
WITH h
ORDER BY coalesce(h.usage_count, 0) DESC, h.at DESC
LIMIT $limit
RETURN collect(h {.id, domain: coalesce(h.domain, ""), content: coalesce(h.content, ""),
                  usage_count: coalesce(h.usage_count, 0)}) AS strategies
