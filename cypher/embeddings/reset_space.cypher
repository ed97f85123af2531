// purpose: record the model and dimension of the agent's vectors from now on, counts at zero
//   (after `nous embeddings reembed` cleared the old vectors)
// params: $agent_id, $model, $dimensions
// returns: model
// mode: write
MERGE (s:EmbeddingSpace {agent_id: $agent_id})
SET s = {agent_id: $agent_id, model: $model, dimensions: $dimensions, at: datetime()}
RETURN s.model AS model
