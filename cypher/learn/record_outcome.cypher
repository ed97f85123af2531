// purpose: record on a decision what came of it, for confidence calibration: outcome_success,
//   the confidence it was taken with and its calibration bucket (0 for 0.0-0.1 … 9 for
//   0.9-1.0), once; learned_at marks it learned so a repeated call changes nothing
// params: $agent_id, $decision_id, $success (bool), $confidence (float), $bucket (int 0-9),
//   $execution_id (or null), $now (datetime)
// returns: first (true when this call recorded the outcome, false when it was learned before);
//   no row when the decision does not exist
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
WITH d, d.learned_at IS NULL AS first
CALL (d, first) {
  WITH d WHERE first
  SET d.outcome_success = $success,
      d.outcome_at = coalesce(d.outcome_at, $now),
      d.calibration_confidence = $confidence,
      d.calibration_bucket = $bucket,
      d.outcome_execution_id = $execution_id,
      d.learned_at = $now
}
RETURN first
