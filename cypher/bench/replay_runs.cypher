// purpose: the replay benchmark's runs (executions started by a template): how long each took
//   and how many changes its decision CONSIDERED (what one run per changed file would have run)
// params: $agent_id
// returns: template, dry_run, success, seconds (null while it runs), considered
// mode: read
MATCH (x:Execution)
WHERE x.agent_id = $agent_id AND x.at IS NOT NULL AND x.template IS NOT NULL
OPTIONAL MATCH (d:Decision {id: x.decision_id})
RETURN x.template AS template, coalesce(x.dry_run, false) AS dry_run, x.success AS success,
  CASE WHEN x.ended_at IS NULL THEN null
       ELSE (x.ended_at.epochMillis - x.at.epochMillis) / 1000.0 END AS seconds,
  CASE WHEN d IS NULL THEN 1 ELSE COUNT { (d)-[:CONSIDERED]->() } END AS considered
