// purpose: decisions that are waiting (WAIT) or investigating (INVESTIGATE) and either due now or
//   about a path that has new unprocessed observations, with the observations they considered
// params: $agent_id, $now (datetime), $paths (paths of the observations in hand), $statuses
//   (the status values of decisions that are looked at again)
// returns: id, type, status, path, wait_until, investigation_round, wait_round,
//   investigation_questions, investigation_findings, investigation_answers, investigation_new,
//   investigation_model, observation_ids
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.status IN $statuses
  AND d.wait_until IS NOT NULL
  AND (d.wait_until <= $now OR d.path IN $paths)
OPTIONAL MATCH (d)-[:CONSIDERED]->(o:Observation)
RETURN d.id AS id, d.type AS type, d.status AS status, d.path AS path,
       d.wait_until AS wait_until, coalesce(d.investigation_round, 0) AS investigation_round,
       coalesce(d.wait_round, 0) AS wait_round,
       coalesce(d.investigation_questions, []) AS investigation_questions,
       coalesce(d.investigation_findings, []) AS investigation_findings,
       coalesce(d.investigation_answers, []) AS investigation_answers,
       d.investigation_new AS investigation_new, d.investigation_model AS investigation_model,
       collect(o.id) AS observation_ids
ORDER BY d.wait_until
LIMIT 100
