// purpose: the clauses that write one observation row (bound as `row`) and its links: the
//   Observation itself, the File it is ABOUT brought up to date, MOVED_FROM the old path's File
//   of a move, CAUSED_BY the Execution of the agent's own edit. Written once for the two
//   statements that write observations: observe/record_observations (the fast way) and
//   observe/record_observations_checked (a chunk with an id already stored).
// params: none of its own; in scope where it is included: row (a map as for
//   observe/record_observations)
// returns: clauses ending with o and row in scope (included by
//   {{ fragments/record_observation }}; never run alone)
// note: CREATE of the new observation and of its relationships, not MERGE: MERGE takes a lock
//   on the index entry and, for a relationship, looks through the File's relationships for one
//   that a node created in this statement cannot have (about half the time the batch took).
//   One subquery per kind of link, each a no-op for rows without one. A File only takes values
//   from an observation at least as new as the one it last took (a late retry cannot roll it
//   back); if the Execution is gone, the observation keeps its caused_by property and no bare
//   Execution node is made.
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
