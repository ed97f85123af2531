// purpose: record that an action starts running: the Execution node, EXECUTED_AS from its
//   decision (now executed, status acting, and Consequential unless the run is a dry run's:
//   found by words, migration 021), and RETRY_OF the execution it retries
// params: $execution (map of Execution properties), $decision_id, $retry_of (or null),
//   $acting (the status value)
// returns: id of the execution
MATCH (d:Decision {id: $decision_id})
CREATE (x:Execution)
SET x = $execution
SET d.executed = true, d.status = $acting
CREATE (d)-[:EXECUTED_AS]->(x)
WITH d, x
CALL (d, x) {
  WITH d, x WHERE NOT coalesce(x.dry_run, false)
  SET d:Consequential
}
WITH x
CALL (x) {
  WITH x WHERE $retry_of IS NOT NULL
  MATCH (prev:Execution {id: $retry_of})
  CREATE (x)-[:RETRY_OF]->(prev)
}
RETURN x.id AS id
