// purpose: the agent's patterns (category:type:decision:template) with how often each
//   succeeded and the confidence it was decided with, the most used first
// params: $agent_id, $limit
// returns: key, total, successes, success_rate (or null), avg_confidence
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (p:Pattern)
WHERE p.agent_id = $agent_id AND p.key IS NOT NULL
RETURN p.key AS key, coalesce(p.total, 0) AS total, coalesce(p.successes, 0) AS successes,
       CASE WHEN coalesce(p.total, 0) = 0 THEN null
            ELSE toFloat(p.successes) / p.total END AS success_rate,
       p.avg_confidence AS avg_confidence
ORDER BY total DESC, key
LIMIT toInteger($limit)
