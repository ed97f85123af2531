// purpose: record a dry run's action once it has ended, in one statement: the whole Execution
//   node, EXECUTED_AS from its decision (executed), RETRY_OF the execution it retries, and
//   the decision settled with what came of it (the same properties start_execution and then
//   settle_decision would leave; nothing ran, so there is nothing in between to see)
// params: $execution (map of Execution properties, ended), $decision_id, $retry_of (or null),
//   $changes (map of the decision's status, outcome, outcome_success, outcome_at)
// returns: id of the execution
MATCH (d:Decision {id: $decision_id})
CREATE (x:Execution)
SET x = $execution
SET d.executed = true
SET d += $changes
CREATE (d)-[:EXECUTED_AS]->(x)
WITH x
CALL (x) {
  WITH x WHERE $retry_of IS NOT NULL
  MATCH (prev:Execution {id: $retry_of})
  CREATE (x)-[:RETRY_OF]->(prev)
}
RETURN x.id AS id
