// purpose: the turns of one Claude Code session, oldest first, with the decision each was for
// params: $agent_id, $session_id, $limit
// returns: turn (map of the Turn's properties), decision_id (or null)
// mode: read
MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id})
OPTIONAL MATCH (t)-[:FOR]->(d:Decision)
RETURN properties(t) AS turn, d.id AS decision_id
ORDER BY t.at
LIMIT $limit
