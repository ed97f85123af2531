// purpose: one escalation with the decision it is for, for a person to act on
// params: $agent_id, $escalation_id
// returns: escalation (map of its properties), decision_id, decision_type, path, template,
//   confidence, reasoning; no row when there is no such escalation
// mode: read
MATCH (e:Escalation {id: $escalation_id})
WHERE e.agent_id = $agent_id
OPTIONAL MATCH (e)-[:FOR]->(d:Decision)
RETURN properties(e) AS escalation, d.id AS decision_id, d.type AS decision_type,
       d.path AS path, d.template AS template, d.confidence AS confidence,
       d.reasoning AS reasoning
