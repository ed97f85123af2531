// purpose: the latest events of one type, newest first (audits and tests)
// params: $agent_id, $type, $limit
// returns: event (map of the Event's properties, data still a JSON string)
// mode: read
MATCH (e:Event)
WHERE e.agent_id = $agent_id AND e.type = $type
RETURN properties(e) AS event
ORDER BY e.at DESC
LIMIT $limit
