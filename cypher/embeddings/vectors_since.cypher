// purpose: the agent's vectors of one model embedded at or after $since, oldest first: what a small
//   agent's in-memory copy (cognition.recall.agent_vectors) reads to stay up to date. Cases
//   are left out: they are recalled apart, as worked examples (cognition.cases)
// params: $agent_id, $model, $since (datetime), $limit
// returns: eid (element id), label, path (a File's), embedding, embedded_at
// mode: read
MATCH (n:Embedded)
USING INDEX SEEK n:Embedded(agent_id, embedded_at)
WHERE n.agent_id = $agent_id AND n.embedded_at >= $since AND n.embedding_model = $model
  AND NOT n:Case
WITH n ORDER BY n.agent_id, n.embedded_at LIMIT $limit
RETURN elementId(n) AS eid,
       [l IN labels(n) WHERE l IN ["Decision", "Lesson", "Fact", "Procedure", "Episode",
                                   "Heuristic", "Censor", "Turn", "Commit", "File"]][0] AS label,
       n.path AS path, n.embedding AS embedding, n.embedded_at AS embedded_at
