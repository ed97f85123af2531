// purpose: record the files found on the first look at a root as the baseline: each File as it
//   is on disk, with no Observation (what was there before Nous looked is not a change, and no
//   template acts on it)
// params: $agent_id, $rows: list of maps {path, file_id, at (datetime), content_hash, size, mtime}
// returns: recorded (number of rows)
UNWIND $rows AS row
MERGE (f:File {agent_id: $agent_id, path: row.path})
  ON CREATE SET f.id = row.file_id, f.at = row.at
SET f.exists = true, f.content_hash = row.content_hash, f.size = row.size, f.mtime = row.mtime,
    f.updated_at = row.at, f.baseline = true
RETURN count(f) AS recorded
