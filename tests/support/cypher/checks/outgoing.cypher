// purpose: test check: a node's outgoing relationships, by the node's id (tests only; the
//   agent's own nodes are few, so the scan does not matter here)
// params: $agent_id, $id
// returns: type, label (the target's first label), target (the target's id)
// mode: read
MATCH (n)-[r]->(m)
WHERE n.agent_id = $agent_id AND n.id = $id
RETURN type(r) AS type, labels(m)[0] AS label, m.id AS target
ORDER BY type, target
