// purpose: of $paths, those whose latest decision was settled at once because no loaded template
//   could act on its change (the decision loop folds such a file's later changes into that
//   decision instead of deciding again: at most one decision that does not act per file)
// params: $agent_id, $paths (paths of the observations in hand), $outcome (the settlement's
//   outcome text, cognition.follow_up.NOTHING_TO_ACT_ON), $status (the closed status value)
// returns: path, decision_id; one row per such path
// mode: read
UNWIND $paths AS path
CALL (path) {
  MATCH (d:Decision)
  USING INDEX d:Decision(agent_id, path, at)
  WHERE d.agent_id = $agent_id AND d.path = path AND d.at IS NOT NULL
  RETURN d
  ORDER BY d.at DESC
  LIMIT 1
}
WITH path, d
WHERE d.status = $status AND d.outcome = $outcome
RETURN path, d.id AS decision_id
