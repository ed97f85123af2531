// purpose: the lessons drawn from one decision's outcome, and the censors learned from its
//   executions (the censor it fired)
// params: $agent_id, $decision_id
// returns: kind ("lesson" or "censor"), id, type, text, severity (censors) ; lessons first
// mode: read
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
CALL (d) {
  MATCH (d)<-[:LEARNED_FROM]-(l:Lesson)
  RETURN "lesson" AS kind, l.id AS id, l.type AS type, l.reason AS text, null AS severity,
         l.at AS at
  UNION
  MATCH (d)-[:EXECUTED_AS]->(:Execution)<-[:LEARNED_FROM]-(c:Censor)
  RETURN "censor" AS kind, c.id AS id, c.status AS type,
         c.trigger_pattern + ": " + c.reason AS text, c.severity AS severity, c.at AS at
}
RETURN kind, id, type, text, severity
ORDER BY kind DESC, at
