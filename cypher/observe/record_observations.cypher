// purpose: write a batch of observations, each linked ABOUT the File it concerns, and bring the
//   File node up to date. Idempotent: an observation whose id is already stored is left out
//   (a retried batch writes nothing twice; ids are unique, so a race ends in a constraint
//   error, never a duplicate), and a File only takes values from an observation at least as
//   new as the one it last took (a late retry cannot roll it back). A move also marks the old
//   path's File as gone and links MOVED_FROM to it. An observation of the agent's own edit
//   links CAUSED_BY the Execution that made it (written before it runs; if it is gone, the
//   observation keeps its caused_by property and no bare Execution node is made).
// params: $rows: list of maps {id, agent_id, at (datetime), type, urgency, category, path,
//   path_pattern, content_hash, size, mtime, processed, metadata (JSON string), caused_by,
//   from_path, file_exists (bool), file_id, from_file_id}
// returns: written (number of observations new to the graph)
// note: CREATE of the new observations and of their relationships, not MERGE: MERGE takes a
//   lock on the index entry and, for a relationship, looks through the File's relationships
//   for one that a node created in this statement cannot have (about half the time the batch
//   took). One subquery per kind of link, each a no-op for rows without one.
UNWIND $rows AS row
OPTIONAL MATCH (seen:Observation {id: row.id})
WITH row WHERE seen IS NULL
CREATE (o:Observation)
SET o.id = row.id, o.agent_id = row.agent_id, o.at = row.at, o.type = row.type,
    o.urgency = row.urgency, o.category = row.category, o.path = row.path,
    o.path_pattern = row.path_pattern, o.content_hash = row.content_hash, o.size = row.size,
    o.mtime = row.mtime, o.processed = row.processed, o.metadata = row.metadata,
    o.caused_by = row.caused_by
WITH o, row
CALL (o, row) {
  WITH o, row WHERE row.path IS NOT NULL
  MERGE (f:File {agent_id: row.agent_id, path: row.path})
    ON CREATE SET f.id = row.file_id, f.at = row.at
  SET f += CASE WHEN f.updated_at IS NULL OR row.at >= f.updated_at
    THEN {exists: row.file_exists, content_hash: row.content_hash, size: row.size,
          mtime: row.mtime, updated_at: row.at}
    ELSE {} END
  CREATE (o)-[:ABOUT]->(f)
}
CALL (o, row) {
  WITH o, row WHERE row.from_path IS NOT NULL
  MERGE (old:File {agent_id: row.agent_id, path: row.from_path})
    ON CREATE SET old.id = row.from_file_id, old.at = row.at
  SET old += CASE WHEN old.updated_at IS NULL OR row.at >= old.updated_at
    THEN {exists: false, updated_at: row.at} ELSE {} END
  CREATE (o)-[:MOVED_FROM]->(old)
}
CALL (o, row) {
  UNWIND CASE WHEN row.caused_by IS NULL THEN [] ELSE [row.caused_by] END AS execution_id
  MATCH (x:Execution {id: execution_id})
  CREATE (o)-[:CAUSED_BY]->(x)
}
RETURN count(*) AS written
