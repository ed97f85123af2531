// purpose: write a batch of observations that each concern one File and nothing else (a path,
//   no move, not the agent's own edit): the Observation, its File brought up to date, the ABOUT
//   link; the common batch, written without the link subqueries of
//   observe/record_observations (Memory.record_observations picks the statement per batch).
//   As there, a chunk holding an id already stored fails on the unique id (nothing of it
//   written) and the writer runs it again through observe/record_observations_checked.
// params: $rows: list of maps as for observe/record_observations, each with a path, no
//   from_path and no caused_by
// returns: written (number of observations written: every row)
UNWIND $rows AS row
{{ fragments/observation_node }}
{{ fragments/observation_file }}
RETURN count(*) AS written
