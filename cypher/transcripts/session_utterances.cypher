// purpose: what was said in a Claude Code session, as read from its transcript (issue 58):
//   its utterances in transcript order, each with the turn it belongs to
// params: $agent_id, $session_id, $limit
// returns: utterance (map of the Utterance's properties), turn_id (or null)
// mode: read
MATCH (u:Utterance {agent_id: $agent_id, session_id: $session_id})
OPTIONAL MATCH (u)-[:IN_TURN]->(t:Turn)
RETURN properties(u) AS utterance, t.id AS turn_id
ORDER BY u.line
LIMIT $limit
