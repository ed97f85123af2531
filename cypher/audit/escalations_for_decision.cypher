// purpose: the escalations raised for one decision, with their messages for a person
// params: $agent_id, $decision_id
// returns: id, at, reason, priority, status, message
// mode: read
MATCH (d:Decision {id: $decision_id})<-[:FOR]-(e:Escalation)
WHERE d.agent_id = $agent_id
RETURN e.id AS id, e.at AS at, e.reason AS reason, e.priority AS priority, e.status AS status,
       e.message AS message
ORDER BY e.at
