// purpose: the open (not yet ended) episode of a session
// params: $agent_id, $session_id
// returns: episode (map of the Episode's properties); no row when the session has none open
// mode: read
MATCH (e:Episode {agent_id: $agent_id, open_session: $session_id})
RETURN properties(e) AS episode
