// purpose: one decision's properties by id (to learn from it after a turn)
// params: $agent_id, $decision_id
// returns: decision (map of the Decision's properties); no row when there is none
// mode: read
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
RETURN properties(d) AS decision
