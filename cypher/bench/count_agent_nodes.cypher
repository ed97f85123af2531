// purpose: how many nodes one agent has (the recall benchmark reports its sizes with it)
// params: $agent_id
// returns: nodes
// mode: read
MATCH (n)
WHERE n.agent_id = $agent_id
RETURN count(n) AS nodes
