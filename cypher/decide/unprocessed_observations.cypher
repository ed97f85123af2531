// purpose: the observations no decision has considered yet, for the decision loop: critical
//   first, then urgent, then the other levels, oldest first within a level, across the whole
//   backlog (each level an index seek on observation_agent_processed_urgency, in time order)
// params: $agent_id, $levels (urgency values, most urgent first), $limit
// returns: id, at, type, urgency, category, path, content_hash, size, mtime, metadata, caused_by
// mode: read
UNWIND range(0, size($levels) - 1) AS rank
CALL (rank) {
  MATCH (o:Observation)
  USING INDEX SEEK o:Observation(agent_id, processed, urgency, at)
  WHERE o.agent_id = $agent_id AND o.processed = false AND o.urgency = $levels[rank]
    AND o.at IS NOT NULL
  RETURN o
  ORDER BY o.agent_id, o.processed, o.urgency, o.at
  LIMIT $limit
}
WITH o, rank
ORDER BY rank, o.at
LIMIT $limit
RETURN o.id AS id, o.at AS at, o.type AS type, o.urgency AS urgency, o.category AS category,
       o.path AS path, o.content_hash AS content_hash, o.size AS size, o.mtime AS mtime,
       o.metadata AS metadata, o.caused_by AS caused_by
