// purpose: the agent's embedding space (the model and dimension its vectors come from, how many
//   it holds, in all and per label) and how many vectors every agent holds together (the
//   count store, no scan): hybrid recall sizes its vector-index request by the agent's share.
// params: $agent_id
// returns: one row: model, dimensions (null when the agent has no vectors yet), mine (the
//   space's properties: vectors, count_<Label>), vectors (every agent's, in the index)
// mode: read
OPTIONAL MATCH (s:EmbeddingSpace {agent_id: $agent_id})
CALL () {
  MATCH (n:Embedded)
  RETURN count(n) AS vectors
}
RETURN s.model AS model, s.dimensions AS dimensions, properties(s) AS mine, vectors
