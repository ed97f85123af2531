// purpose: store a batch of vectors (one label): each node gets its embedding (as a float
//   vector, through db.create.setNodeVectorProperty), the model and dimension it came from,
//   when, and (a File) the content hash and excerpt it was made from. A row without a vector
//   (a binary or unreadable file) records the hash only, so it is not tried again. A node with
//   a vector carries the label Embedded (the one vector index's label); the agent's
//   EmbeddingSpace counts its vectors, in all and per label: a node that had a vector of this
//   model already (a changed File, or two writers embedding the same node) is not counted twice,
//   and a batch that stored none leaves the space alone (no space for an agent with no vector).
// params: $agent_id, $label, $model, $dimensions, $rows: [{eid, vector (list or null),
//   hash (or null), excerpt (or null)}]
// returns: written (vectors stored)
// mode: write
UNWIND $rows AS row
MATCH (n)
WHERE elementId(n) = row.eid AND n.agent_id = $agent_id
SET n.embedded_hash = row.hash
SET n.excerpt = CASE WHEN row.excerpt IS NULL THEN n.excerpt ELSE row.excerpt END
WITH n, row, coalesce(n.embedding_model, '') = $model AS had
CALL (n, row, had) {
  WITH n, row, had WHERE row.vector IS NOT NULL
  CALL db.create.setNodeVectorProperty(n, "embedding", row.vector)
  SET n:Embedded, n.embedding_model = $model, n.embedding_dims = $dimensions,
      n.embedded_at = datetime()
  RETURN CASE WHEN had THEN 0 ELSE 1 END AS stored
}
WITH sum(stored) AS written
WHERE written > 0
MERGE (s:EmbeddingSpace {agent_id: $agent_id})
  ON CREATE SET s.model = $model, s.dimensions = $dimensions, s.at = datetime()
SET s["count_" + $label] = coalesce(s["count_" + $label], 0) + written,
    s.vectors = coalesce(s.vectors, 0) + written
RETURN written
