// purpose: the common case of observe/record_observations, leaner: a batch of new observations
//   of files, none a move and none the agent's own edit, each linked ABOUT its File, the File
//   brought up to date (only from an observation at least as new as the one it last took).
//   No check for ids already stored: a stored id fails the whole batch on the id's
//   uniqueness constraint, nothing written, and the caller writes it again through
//   observe/record_observations, which leaves stored ids out (Memory.record_observations).
// params: $rows: list of maps as for observe/record_observations, each with a path, no
//   from_path and no caused_by
// returns: written (number of observations written)
// note: the id check (a locking index seek per row) and the two link subqueries that are
//   no-ops for these rows (each with the Eager it brings) were about half the write's
//   server time; the File is updated by filtering, not by a map built per row.
UNWIND $rows AS row
WITH row, datetime(row.at) AS at
CREATE (o:Observation)
SET o.id = row.id, o.agent_id = row.agent_id, o.at = at, o.type = row.type,
    o.urgency = row.urgency, o.category = row.category, o.path = row.path,
    o.path_pattern = row.path_pattern, o.content_hash = row.content_hash, o.size = row.size,
    o.mtime = row.mtime, o.processed = row.processed, o.metadata = row.metadata
WITH o, row, at
CALL (o, row, at) {
  MERGE (f:File {agent_id: row.agent_id, path: row.path})
    ON CREATE SET f.id = row.file_id, f.at = at
  CREATE (o)-[:ABOUT]->(f)
  WITH f, row, at
  WHERE f.updated_at IS NULL OR at >= f.updated_at
  SET f.exists = row.file_exists, f.content_hash = row.content_hash, f.size = row.size,
      f.mtime = row.mtime, f.updated_at = at
}
RETURN count(*) AS written
