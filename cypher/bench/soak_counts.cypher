// purpose: the soak benchmark's final counts for one agent: file observations not made by the
//   agent itself, decisions still acting, executions that never ended
// params: $agent_id
// returns: file_observations, acting_decisions, unfinished_executions
// mode: read
CALL () {
  MATCH (o:Observation)
  WHERE o.agent_id = $agent_id AND o.type STARTS WITH "file_" AND o.caused_by IS NULL
  RETURN count(o) AS file_observations
}
CALL () {
  MATCH (d:Decision)
  WHERE d.agent_id = $agent_id AND d.status = "acting"
  RETURN count(d) AS acting_decisions
}
CALL () {
  MATCH (x:Execution)
  WHERE x.agent_id = $agent_id AND x.ended_at IS NULL
  RETURN count(x) AS unfinished_executions
}
RETURN file_observations, acting_decisions, unfinished_executions
