// purpose: the soak benchmark's file observations not made by the agent itself, one row each,
//   to match against the change events the churn logged (bench/soak_count.py)
// params: $agent_id
// returns: path, type, content_hash, metadata (JSON string), at
// mode: read
MATCH (o:Observation)
WHERE o.agent_id = $agent_id AND o.type STARTS WITH "file_" AND o.caused_by IS NULL
RETURN o.path AS path, o.type AS type, o.content_hash AS content_hash, o.metadata AS metadata,
  o.at AS at
