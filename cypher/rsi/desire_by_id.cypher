// purpose: one desire by id
// params: $agent_id, $desire_id
// returns: desire (node properties), or no row
// mode: read
MATCH (d:Desire {id: $desire_id})
WHERE d.agent_id = $agent_id
RETURN properties(d) AS desire
