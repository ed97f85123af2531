// purpose: the observations about one file, newest first (audit and tests)
// params: $agent_id, $path (relative to the root), $limit
// returns: id, at, type, urgency, category, path, content_hash, metadata, caused_by
// mode: read
MATCH (f:File {agent_id: $agent_id, path: $path})<-[:ABOUT]-(o:Observation)
RETURN o.id AS id, o.at AS at, o.type AS type, o.urgency AS urgency, o.category AS category,
       o.path AS path, o.content_hash AS content_hash, o.metadata AS metadata,
       o.caused_by AS caused_by, f.exists AS file_exists
ORDER BY o.at DESC
LIMIT $limit
