// purpose: the last run of each action template, for `nous status`: when it started, whether it
//   has ended, passed or failed, and what a failure said (its error names the failing tests)
// params: $agent_id, $scan (how many of the agent's latest executions to look through)
// returns: template, execution_id, decision_id, at, ended_at, success, dry_run, error,
//   failure_type; one row per template, by template name
// note: seeks the (agent_id, at) index newest first, so a long history costs $scan rows
// mode: read
MATCH (x:Execution)
WHERE x.agent_id = $agent_id AND x.at IS NOT NULL
WITH x ORDER BY x.at DESC LIMIT $scan
WITH x WHERE x.template IS NOT NULL
WITH x.template AS template, collect(x)[0] AS last
RETURN template, last.id AS execution_id, last.decision_id AS decision_id, last.at AS at,
       last.ended_at AS ended_at, last.success AS success, coalesce(last.dry_run, false) AS dry_run,
       last.error AS error, last.failure_type AS failure_type
ORDER BY template
