// purpose: record what came of a decision: its status, outcome text and success, and for WAIT
//   and INVESTIGATE when to look again
// params: $decision_id, $changes (map: status, outcome, outcome_success, outcome_at,
//   wait_until, investigation_round … ; keys absent are left as they are)
// returns: id of the decision
MATCH (d:Decision {id: $decision_id})
SET d += $changes
RETURN d.id AS id
