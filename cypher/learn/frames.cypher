// purpose: every frame of the agent, with its usage count, highest priority first
// params: $agent_id
// returns: frame (map of the Frame's properties), one row per frame
// mode: read
MATCH (f:Frame)
WHERE f.agent_id = $agent_id AND f.name IS NOT NULL
RETURN properties(f) AS frame
ORDER BY f.priority DESC, f.name
