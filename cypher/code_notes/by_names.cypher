// purpose: the agent's active notes about any of these names (the recall before a prompt)
// params: $agent_id, $names (list of identifiers), $limit
// returns: note (the node's properties, without its embedding)
// mode: read
UNWIND $names AS wanted
MATCH (n:CodeNote)
USING INDEX n:CodeNote(agent_id, name)
WHERE n.agent_id = $agent_id AND n.name = wanted AND n.status = "active"
RETURN n {.*, embedding: null} AS note
ORDER BY n.at DESC, n.id
LIMIT $limit
