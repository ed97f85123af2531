// purpose: the subqueries that link one observation (o, with its row) beyond its File:
//   MOVED_FROM the old path's File of a move (marked gone), CAUSED_BY the Execution of the
//   agent's own edit. Written once for observe/record_observations and
//   observe/record_observations_checked.
// params: none of its own; in scope where it is included: o and row (a map as for
//   observe/record_observations)
// returns: clauses ending with o and row in scope (included by
//   {{ fragments/observation_links }}; never run alone)
// note: each subquery is a no-op for a row without its link, yet costs every row of a batch,
//   so a batch whose rows have a File and nothing more goes through
//   observe/record_file_observations, which has none (issue 28). If the Execution is gone, the observation keeps its caused_by
//   property and no bare Execution node is made.
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
