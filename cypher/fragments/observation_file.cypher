// purpose: the clauses that bring the File an observation (o, with its row) is ABOUT up to date
//   and link the two; for a row with a path, and only where such a row is in scope
// params: none of its own; in scope where it is included: o and row (a map as for
//   observe/record_observations, its path not null)
// returns: clauses ending with o, row and f in scope (included by
//   {{ fragments/observation_file }}; never run alone)
// note: the File only takes values from an observation at least as new as the one it last took
//   (a late retry, or a chunk committed out of order, cannot roll it back). CREATE of the ABOUT
//   link, not MERGE: MERGE would look through the File's relationships for one that an
//   observation created in this statement cannot have.
MERGE (f:File {agent_id: row.agent_id, path: row.path})
  ON CREATE SET f.id = row.file_id, f.at = row.at
SET f += CASE WHEN f.updated_at IS NULL OR row.at >= f.updated_at
  THEN {exists: row.file_exists, content_hash: row.content_hash, size: row.size,
        mtime: row.mtime, updated_at: row.at}
  ELSE {} END
CREATE (o)-[:ABOUT]->(f)
