// purpose: a person closes an escalation: status resolved or dismissed, resolved_at and their
//   note; with $retry the decision's observations are unprocessed again, so the decision loop
//   decides them anew, and the decision is marked $retry_status
// params: $agent_id, $escalation_id, $status ("resolved" or "dismissed"), $note, $at
//   (datetime), $retry (bool), $retry_status (DecisionStatus.RETRY_REQUESTED)
// returns: id, status, decision_id, reopened (observations handed back to the loop); no row
//   when there is no such escalation
MATCH (e:Escalation {id: $escalation_id})
WHERE e.agent_id = $agent_id
SET e.status = $status, e.resolved_at = $at, e.note = $note
WITH e
OPTIONAL MATCH (e)-[:FOR]->(d:Decision)
CALL (d) {
  WITH d WHERE $retry AND d IS NOT NULL
  SET d.status = $retry_status
  WITH d
  MATCH (d)-[:CONSIDERED]->(o:Observation)
  SET o.processed = false
  RETURN count(o) AS reopened
}
RETURN e.id AS id, e.status AS status, d.id AS decision_id, reopened
