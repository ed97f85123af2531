// purpose: a person marks a goal done: completed_at is set, so recall stops showing it
// params: $agent_id, $goal_id, $at (datetime)
// returns: id, description, completed_at; no row when there is no such goal
MATCH (g:Goal {id: $goal_id})
WHERE g.agent_id = $agent_id
SET g.completed_at = coalesce(g.completed_at, $at)
RETURN g.id AS id, g.description AS description, g.completed_at AS completed_at
