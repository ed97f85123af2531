// purpose: every censor of the agent (active and lifted), block before warn, newest first
// params: $agent_id, $limit
// returns: id, at, status, severity, fire_count, trigger_pattern, reason, lifted_at
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (c:Censor)
WHERE c.agent_id = $agent_id AND c.at IS NOT NULL
RETURN c.id AS id, c.at AS at, c.status AS status, coalesce(c.severity, "warn") AS severity,
       coalesce(c.fire_count, 0) AS fire_count, c.trigger_pattern AS trigger_pattern,
       c.reason AS reason, c.lifted_at AS lifted_at
ORDER BY CASE c.status WHEN "active" THEN 0 ELSE 1 END,
         CASE c.severity WHEN "block" THEN 0 ELSE 1 END, c.at DESC
LIMIT toInteger($limit)
