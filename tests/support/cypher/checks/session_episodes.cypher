// purpose: every episode of one session, open or ended, oldest first
// params: $agent_id, $session_id
// returns: episode (map of the Episode's properties), one row per episode
// mode: read
MATCH (e:Episode {agent_id: $agent_id, session_id: $session_id})
RETURN properties(e) AS episode
ORDER BY e.started_at
