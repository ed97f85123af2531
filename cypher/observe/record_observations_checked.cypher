// purpose: write a batch of observations as observe/record_observations does, leaving out each
//   one whose id is already stored: the way a chunk is written again after the fast way (or
//   observe/record_file_observations) failed on the unique id (a retried or replayed batch
//   writes nothing twice; a race between two writers ends in a constraint error, never a
//   duplicate).
// params: $rows: list of maps as for observe/record_observations
// returns: written (number of observations new to the graph)
UNWIND $rows AS row
OPTIONAL MATCH (seen:Observation {id: row.id})
WITH row WHERE seen IS NULL
{{ fragments/observation_node }}
WITH o, row
CALL (o, row) {
  WITH o, row WHERE row.path IS NOT NULL
  {{ fragments/observation_file }}
}
{{ fragments/observation_links }}
RETURN count(*) AS written
