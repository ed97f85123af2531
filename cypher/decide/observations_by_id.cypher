// purpose: observations by id (to re-decide a waiting decision with what it first considered)
// params: $ids
// returns: id, at, type, urgency, category, path, content_hash, size, mtime, metadata, caused_by
// mode: read
UNWIND $ids AS oid
MATCH (o:Observation {id: oid})
RETURN o.id AS id, o.at AS at, o.type AS type, o.urgency AS urgency, o.category AS category,
       o.path AS path, o.content_hash AS content_hash, o.size AS size, o.mtime AS mtime,
       o.metadata AS metadata, o.caused_by AS caused_by
ORDER BY o.at
