// purpose: the escalations raised for one decision, with their messages for a person: its own
//   (FOR) and the open one it repeats (REPEATS: the same block met again at a later change)
// params: $agent_id, $decision_id
// returns: id, at, reason, priority, status, message
// mode: read
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
CALL (d) {
  MATCH (d)<-[:FOR]-(e:Escalation)
  RETURN e
  UNION
  MATCH (d)-[:REPEATS]->(e:Escalation)
  RETURN e
}
RETURN e.id AS id, e.at AS at, e.reason AS reason, e.priority AS priority, e.status AS status,
       e.message AS message
ORDER BY e.at
