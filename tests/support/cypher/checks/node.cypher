// purpose: test check: every property of one node, by id (tests only)
// params: $agent_id, $id
// returns: labels, properties; no row when there is no such node
// mode: read
MATCH (n)
WHERE n.agent_id = $agent_id AND n.id = $id
RETURN labels(n) AS labels, properties(n) AS properties
