// purpose: decisions that are waiting (WAIT) or investigating (INVESTIGATE) and either due now or
//   about a path that has new unprocessed observations, each with the observations it considered
//   and what its investigation found
// params: $agent_id, $now (datetime), $paths (paths of the observations in hand), $statuses
//   (the status values of decisions that are looked at again)
// returns: decision (map of the Decision's properties), observation_ids, investigation_findings,
//   investigation_answers, investigation_new, investigation_model; soonest due first
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.status IN $statuses
  // A range on wait_until (every datetime is after 1970), not IS NOT NULL: with it the
  // composite index is sought on all three keys; with IS NOT NULL the planner may scan it whole.
  AND d.wait_until > datetime("1970-01-01T00:00:00Z")
  AND (d.wait_until <= $now OR d.path IN $paths)
OPTIONAL MATCH (d)-[:CONSIDERED]->(o:Observation)
WITH d, collect(o.id) AS observation_ids
RETURN properties(d) AS decision, observation_ids,
       coalesce(d.investigation_findings, []) AS investigation_findings,
       coalesce(d.investigation_answers, []) AS investigation_answers,
       d.investigation_new AS investigation_new, d.investigation_model AS investigation_model
ORDER BY d.wait_until
LIMIT 100
