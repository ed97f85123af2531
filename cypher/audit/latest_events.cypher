// purpose: the latest events of one type (e.g. daemon_started), newest first, with their data
//   as a JSON string; `nous status` reads whether a daemon runs from them
// params: $agent_id, $type, $limit
// returns: id, at, type, session_id, data
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (e:Event)
WHERE e.agent_id = $agent_id AND e.type = $type
RETURN e.id AS id, e.at AS at, e.type AS type, e.session_id AS session_id, e.data AS data
ORDER BY e.at DESC
LIMIT toInteger($limit)
