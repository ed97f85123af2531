// purpose: fewer indexes to fill on every new File (issue 28, bench.ingest against the bare
//   write). A File is written with each observation of it; three of its six indexes were asked
//   by no query: file_path (n.path alone: every File read also gives agent_id), file_agent_at
//   (no read orders or filters Files by when they were first seen) and file_agent_exists
//   (observe/file_records, once at start, now seeks the unique (agent_id, path) index and
//   filters exists). Measured on the shared Neo4j, 4 rounds of 20,000 rows over 5,000 paths,
//   one chunk at a time: observe/record_observations at 0.63 of the bare UNWIND ... CREATE with
//   them, 0.72 without. Kept: file_id and file_agent_path (constraints) and
//   file_agent_updated_at (the vector job's cursor). Dropping is idempotent (IF EXISTS).
// params: none
// returns: nothing
DROP INDEX file_path IF EXISTS;
DROP INDEX file_agent_at IF EXISTS;
DROP INDEX file_agent_exists IF EXISTS;
