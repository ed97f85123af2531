// purpose: the agent's latest decisions with what they were about and what came of them
// params: $agent_id, $limit
// returns: id, at, type, confidence, reasoner, template, path, status, outcome_success, reasoning
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.at IS NOT NULL
RETURN d.id AS id, d.at AS at, d.type AS type, d.confidence AS confidence,
       d.reasoner AS reasoner, d.template AS template, d.path AS path, d.status AS status,
       d.outcome_success AS outcome_success, d.reasoning AS reasoning
ORDER BY d.at DESC
LIMIT toInteger($limit)
