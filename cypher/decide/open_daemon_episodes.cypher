// purpose: the open episodes of earlier daemon runs of this agent (a run that was killed never
//   ended its episode); chat sessions' episodes are left alone. Read from the daemon_started
//   events to the episodes of their sessions, so both reads are index seeks.
// params: $agent_id, $session_id (this run's session, whose episode stays open)
// returns: id, session_id of each open episode
// mode: read
MATCH (s:Event)
WHERE s.agent_id = $agent_id AND s.type = "daemon_started" AND s.session_id <> $session_id
WITH DISTINCT s.session_id AS session
MATCH (e:Episode)
WHERE e.agent_id = $agent_id AND e.session_id = session AND e.ended_at IS NULL
RETURN e.id AS id, e.session_id AS session_id
ORDER BY e.at
