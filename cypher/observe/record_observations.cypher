// purpose: write a batch of observations, each linked ABOUT the File it concerns, and bring the
//   File node up to date. Idempotent: observations MERGE on their id, so a retried batch
//   writes nothing twice, and a File only takes values from an observation at least as new
//   as the one it last took (a late retry cannot roll it back). A move also marks the old
//   path's File as gone and links MOVED_FROM to it. An observation of the agent's own edit
//   links CAUSED_BY the Execution that made it (written before it runs; if it is gone, the
//   observation keeps its caused_by property and no bare Execution node is made).
// params: $rows: list of maps {id, agent_id, at (datetime), type, urgency, category, path,
//   path_pattern, content_hash, size, mtime, processed, metadata (JSON string), caused_by,
//   from_path, file_exists (bool), file_id, from_file_id}
// returns: written (number of rows)
UNWIND $rows AS row
MERGE (o:Observation {id: row.id})
  ON CREATE SET
    o.agent_id = row.agent_id, o.at = row.at, o.type = row.type, o.urgency = row.urgency,
    o.category = row.category, o.path = row.path, o.path_pattern = row.path_pattern,
    o.content_hash = row.content_hash, o.size = row.size, o.mtime = row.mtime,
    o.processed = row.processed, o.metadata = row.metadata, o.caused_by = row.caused_by
FOREACH (_ IN CASE WHEN row.path IS NULL THEN [] ELSE [1] END |
  MERGE (f:File {agent_id: row.agent_id, path: row.path})
    ON CREATE SET f.id = row.file_id, f.at = row.at
  SET f += CASE WHEN f.updated_at IS NULL OR row.at >= f.updated_at
    THEN {exists: row.file_exists, content_hash: row.content_hash, size: row.size,
          mtime: row.mtime, updated_at: row.at}
    ELSE {} END
  MERGE (o)-[:ABOUT]->(f)
)
FOREACH (_ IN CASE WHEN row.from_path IS NULL THEN [] ELSE [1] END |
  MERGE (old:File {agent_id: row.agent_id, path: row.from_path})
    ON CREATE SET old.id = row.from_file_id, old.at = row.at
  SET old += CASE WHEN old.updated_at IS NULL OR row.at >= old.updated_at
    THEN {exists: false, updated_at: row.at} ELSE {} END
  MERGE (o)-[:MOVED_FROM]->(old)
)
WITH o, row
CALL (o, row) {
  WITH o, row WHERE row.caused_by IS NOT NULL
  MATCH (x:Execution {id: row.caused_by})
  MERGE (o)-[:CAUSED_BY]->(x)
}
RETURN count(*) AS written
