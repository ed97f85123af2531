// purpose: the agent's desires (what it wants to get better at), newest first, with where each
//   came from and what became of it
// params: $agent_id, $limit
// returns: id, at, status, origin, domain, intensity, score, description, external_request,
//   rejection_reason
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (s:Desire)
WHERE s.agent_id = $agent_id AND s.at IS NOT NULL
RETURN s.id AS id, s.at AS at, s.status AS status, s.origin AS origin, s.domain AS domain,
       s.intensity AS intensity, s.score AS score, s.description AS description,
       s.external_request AS external_request, s.rejection_reason AS rejection_reason
ORDER BY s.at DESC
LIMIT toInteger($limit)
