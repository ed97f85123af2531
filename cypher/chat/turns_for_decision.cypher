// purpose: the Claude Code turns a decision was opened for (nous why), with their tool results
// params: $agent_id, $decision_id
// returns: turn (map of the Turn's properties)
// mode: read
MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})<-[:FOR]-(t:Turn)
RETURN properties(t) AS turn
ORDER BY t.at
