// purpose: test check: remove what bolt_values wrote for an agent
// params: $agent_id
// returns: one row: removed
MATCH (n:BoltCheck {agent_id: $agent_id})
DETACH DELETE n
RETURN count(*) AS removed
