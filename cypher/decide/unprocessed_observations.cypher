// purpose: the observations no decision has considered yet, oldest first, for the decision loop
// params: $agent_id, $limit
// returns: id, at, type, urgency, category, path, content_hash, size, mtime, metadata, caused_by
// mode: read
MATCH (o:Observation)
WHERE o.agent_id = $agent_id AND o.processed = false AND o.at IS NOT NULL
RETURN o.id AS id, o.at AS at, o.type AS type, o.urgency AS urgency, o.category AS category,
       o.path AS path, o.content_hash AS content_hash, o.size AS size, o.mtime AS mtime,
       o.metadata AS metadata, o.caused_by AS caused_by
ORDER BY o.at
LIMIT $limit
