// purpose: what the memory knows of every file under the root that it believes exists,
//   for the rescan to compare with the disk
// params: $agent_id
// returns: path, content_hash, size, mtime, exists; one row per existing File node
// note: seeks the unique (agent_id, path) index ("path IS NOT NULL" lets the planner use it for
//   agent_id alone) and filters exists: no index on exists is kept up to date for this one read
//   at start (migration 020)
// mode: read
MATCH (f:File)
WHERE f.agent_id = $agent_id AND f.path IS NOT NULL AND f.exists = true
RETURN f.path AS path, f.content_hash AS content_hash, f.size AS size, f.mtime AS mtime,
       f.exists AS exists
