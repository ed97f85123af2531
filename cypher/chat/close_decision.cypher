// purpose: close a chat turn's decision with what came of the turn (status, outcome text and
//   success, the outcome's confidence). A turn the model worked through did something, so the
//   decision becomes Consequential: found by words like an action that ran (migration 021),
//   where a session's failures and what fixed them are looked for.
// params: $decision_id, $changes (map: status, description, confidence, outcome,
//   outcome_success, outcome_at)
// returns: id of the decision
MATCH (d:Decision {id: $decision_id})
SET d += $changes, d:Consequential
RETURN d.id AS id
