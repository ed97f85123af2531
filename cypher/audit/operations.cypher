// purpose: the operational figures of `nous status`: actions started in the last $window_s
//   seconds (the budget used this hour), executions still running, and escalations still open
// params: $agent_id, $window_s (seconds, e.g. 3600)
// returns: one row: started, running, open_escalations
// mode: read
CALL () {
  MATCH (x:Execution)
  WHERE x.agent_id = $agent_id AND x.at >= datetime() - duration({seconds: $window_s})
    AND x.attempt = 1
  RETURN count(x) AS started
}
CALL () {
  MATCH (x:Execution)
  WHERE x.agent_id = $agent_id AND x.at IS NOT NULL AND x.ended_at IS NULL
  RETURN count(x) AS running
}
CALL () {
  MATCH (e:Escalation)
  WHERE e.agent_id = $agent_id AND e.status = "open"
  RETURN count(e) AS open_escalations
}
RETURN started, running, open_escalations
