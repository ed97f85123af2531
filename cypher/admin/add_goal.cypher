// purpose: a person adds a standing goal (shown to every decision until completed)
// params: $agent_id, $goal (map of Goal properties: id, agent_id, at, description, priority)
// returns: id of the goal
CREATE (g:Goal)
SET g = $goal
RETURN g.id AS id
