// purpose: every goal of the agent, open ones first, most important first
// params: $agent_id, $limit
// returns: id, at, description, priority, completed_at
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (g:Goal)
WHERE g.agent_id = $agent_id AND g.at IS NOT NULL
RETURN g.id AS id, g.at AS at, g.description AS description,
       coalesce(g.priority, "medium") AS priority, g.completed_at AS completed_at
ORDER BY CASE WHEN g.completed_at IS NULL THEN 0 ELSE 1 END,
         CASE g.priority WHEN "critical" THEN 0 WHEN "high" THEN 1 WHEN "medium" THEN 2
         WHEN "low" THEN 3 ELSE 2 END, g.at
LIMIT toInteger($limit)
