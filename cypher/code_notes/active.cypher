// purpose: the agent's active notes, oldest first: what the pruner and random draws work from
//   (the notes are capped, so few)
// params: $agent_id, $limit
// returns: note (the node's properties, without its embedding)
// mode: read
MATCH (n:CodeNote)
USING INDEX n:CodeNote(agent_id, status)
WHERE n.agent_id = $agent_id AND n.status = "active"
RETURN n {.*, embedding: null} AS note
ORDER BY n.at, n.id
LIMIT $limit
