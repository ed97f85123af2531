// purpose: remove up to $limit of the agent's vectors (re-embedding with another model starts
//   from none); run again until it clears 0
// params: $agent_id, $limit
// returns: cleared (how many nodes lost their vector)
// mode: write
MATCH (n:Embedded)
USING INDEX SEEK n:Embedded(agent_id, embedding_model)
WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
WITH n LIMIT $limit
REMOVE n:Embedded, n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at,
       n.embedded_hash
RETURN count(n) AS cleared
