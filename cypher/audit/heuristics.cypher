// purpose: the agent's heuristics (strategies distilled from practice), active first, the
//   most used first, with how many trajectories each was distilled from
// params: $agent_id, $limit
// returns: id, at, status, domain, usage_count, trajectories, content, prune_reason
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (h:Heuristic)
WHERE h.agent_id = $agent_id AND h.at IS NOT NULL
RETURN h.id AS id, h.at AS at, h.status AS status, h.domain AS domain,
       coalesce(h.usage_count, 0) AS usage_count,
       COUNT { (h)-[:DISTILLED_FROM]->(:Trajectory) } AS trajectories,
       h.content AS content, h.prune_reason AS prune_reason
ORDER BY CASE h.status WHEN "active" THEN 0 ELSE 1 END, usage_count DESC, h.at DESC
LIMIT toInteger($limit)
