// purpose: change some of one desire's properties (verification, routing, status)
// params: $agent_id, $desire_id, $changes (map of Desire properties)
// returns: id of the desire, or no row when it does not exist
MATCH (d:Desire {id: $desire_id})
WHERE d.agent_id = $agent_id
SET d += $changes
RETURN d.id AS id
