// purpose: the open episodes of earlier daemon runs of this agent (a run that was killed never
//   ended its episode); chat sessions' episodes are left alone
// params: $agent_id, $session_id (this run's session, whose episode stays open)
// returns: id, session_id of each open episode
// mode: read
MATCH (e:Episode {agent_id: $agent_id})
WHERE e.ended_at IS NULL AND e.session_id <> $session_id
  AND EXISTS {
    MATCH (s:Event {agent_id: $agent_id, type: "daemon_started"})
    WHERE s.session_id = e.session_id
  }
RETURN e.id AS id, e.session_id AS session_id
ORDER BY e.at
