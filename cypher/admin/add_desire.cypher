// purpose: a person asks the agent to get better at something: an external Desire (origin
//   external, their words kept in external_request, status pending)
// params: $agent_id, $desire (map of Desire properties)
// returns: id of the desire
CREATE (s:Desire)
SET s = $desire
RETURN s.id AS id
