// purpose: the changes an execution made itself (observations CAUSED_BY it), for audits
// params: $agent_id, $execution_id
// returns: id, at, type, path; one row per observation, oldest first
// mode: read
MATCH (x:Execution {id: $execution_id})<-[:CAUSED_BY]-(o:Observation)
WHERE o.agent_id = $agent_id
RETURN o.id AS id, o.at AS at, o.type AS type, o.path AS path
ORDER BY o.at
