// purpose: the latest turn of a Claude Code session, open or closed (what a compaction keeps
//   of the session's last turn)
// params: $agent_id, $session_id
// returns: turn (map of the Turn's properties); no row when the session has no turn
// mode: read
MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id})
RETURN properties(t) AS turn
ORDER BY t.at DESC
LIMIT 1
