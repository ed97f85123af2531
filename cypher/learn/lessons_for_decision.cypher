// purpose: the lessons learned from one decision, oldest first
// params: $agent_id, $decision_id
// returns: lesson (map of the Lesson's properties), one row per lesson
// mode: read
MATCH (d:Decision {id: $decision_id})<-[:LEARNED_FROM]-(l:Lesson)
WHERE d.agent_id = $agent_id
RETURN properties(l) AS lesson
ORDER BY l.at, l.id
