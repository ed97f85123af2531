// purpose: hand a decision to a person: an Escalation node FOR the decision, with seed 002's
//   message; the decision's status becomes escalated
// params: $escalation (map of Escalation properties), $decision_id, $escalated (the status value)
// returns: id of the escalation
MATCH (d:Decision {id: $decision_id})
CREATE (e:Escalation)
SET e = $escalation
SET d.status = $escalated
CREATE (e)-[:FOR]->(d)
RETURN e.id AS id
