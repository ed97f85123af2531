// purpose: forget everything one agent stored (tests, and a person starting over); other agents are untouched.
//   Deletes in chunks so a large memory does not need one huge transaction.
// params: $agent_id, $limit (nodes per call)
// returns: deleted (number of nodes deleted by this call; call again until 0)
MATCH (n {agent_id: $agent_id})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
