// purpose: every attempt at carrying out one decision, with which attempt each retried
// params: $agent_id, $decision_id
// returns: id, attempt, target, success, return_code, timed_out, failure_type, verdict, error,
//   duration_s, at (started), ended_at (null while it runs), dry_run, validation_passed,
//   validation, retry_of_attempt; one row per execution, first attempt first
// mode: read
MATCH (d:Decision {id: $decision_id})-[:EXECUTED_AS]->(x:Execution)
WHERE d.agent_id = $agent_id
OPTIONAL MATCH (x)-[:RETRY_OF]->(prev:Execution)
RETURN x.id AS id, x.attempt AS attempt, x.target AS target, x.success AS success,
       x.return_code AS return_code, x.timed_out AS timed_out, x.failure_type AS failure_type,
       x.verdict AS verdict, x.error AS error, x.duration_s AS duration_s, x.at AS at,
       x.ended_at AS ended_at, coalesce(x.dry_run, false) AS dry_run,
       x.validation_passed AS validation_passed, x.validation AS validation,
       prev.attempt AS retry_of_attempt
ORDER BY x.attempt
