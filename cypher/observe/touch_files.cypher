// purpose: record a new size/mtime for files whose content hash did not change (a rescan saw a
//   touch, not an edit), so the next rescan does not hash them again
// params: $agent_id, $rows: list of maps {path, size, mtime}
// returns: touched (number of rows)
UNWIND $rows AS row
MATCH (f:File {agent_id: $agent_id, path: row.path})
SET f.size = row.size, f.mtime = row.mtime
RETURN count(f) AS touched
