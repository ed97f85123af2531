// purpose: test check: the trajectories a heuristic was DISTILLED_FROM (tests only)
// params: $agent_id, $id
// returns: id per trajectory
// mode: read
MATCH (h:Heuristic {id: $id})-[:DISTILLED_FROM]->(t:Trajectory)
WHERE h.agent_id = $agent_id
RETURN t.id AS id
ORDER BY id
