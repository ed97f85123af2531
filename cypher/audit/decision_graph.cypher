// purpose: the latest decision as a graph: its observations, steps, executions, escalations,
//   lessons and pattern, to explore in Neo4j Browser
// params: $agent_id
// returns: d (the Decision), r (a relationship of it), x (the node at its other end); one row
//   per relationship
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.at IS NOT NULL
WITH d ORDER BY d.at DESC LIMIT 1
MATCH (d)-[r]-(x)
RETURN d, r, x
