// purpose: escalations waiting for a person, newest first, with the decision each is for
// params: $agent_id, $limit
// returns: id, at, priority, reason, decision_id, path, message
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (e:Escalation)-[:FOR]->(d:Decision)
WHERE e.agent_id = $agent_id AND e.status = "open"
RETURN e.id AS id, e.at AS at, e.priority AS priority, e.reason AS reason,
       d.id AS decision_id, d.path AS path, e.message AS message
ORDER BY e.at DESC
LIMIT toInteger($limit)
