// purpose: the open turn of a Claude Code session (opened by UserPromptSubmit, not yet stopped)
// params: $agent_id, $session_id
// returns: turn (map of the Turn's properties); no row when the session has no open turn
// mode: read
MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id, status: "open"})
RETURN properties(t) AS turn
ORDER BY t.at DESC
LIMIT 1
