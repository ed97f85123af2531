// purpose: what the memory knows of every file under the root that it believes exists,
//   for the rescan to compare with the disk
// params: $agent_id
// returns: path, content_hash, size, mtime, exists; one row per existing File node
// mode: read
MATCH (f:File {agent_id: $agent_id, exists: true})
RETURN f.path AS path, f.content_hash AS content_hash, f.size AS size, f.mtime AS mtime,
       f.exists AS exists
