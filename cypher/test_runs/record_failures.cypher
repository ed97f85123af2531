// purpose: remember a test run that failed: the test files it failed (Execution -BROKE-> File,
//   the failing tests' names on the relationship) and the files whose change started it
//   (Execution -AFTER_CHANGE-> File), so a later change to those files runs those tests first
//   (cognition/act/test_order.py). Files are MERGEd by (agent_id, path), as observations do.
// params: $agent_id, $execution_id, $at (datetime), $changed (list of {path, file_id}),
//   $broken (list of {path, file_id, tests: list of test ids})
// returns: broken (how many test files the run was linked to; 0 when the execution is unknown)
// mode: write
MATCH (x:Execution {id: $execution_id})
WHERE x.agent_id = $agent_id
CALL (x) {
  UNWIND $changed AS c
  MERGE (f:File {agent_id: $agent_id, path: c.path})
    ON CREATE SET f.id = c.file_id, f.at = $at
  MERGE (x)-[:AFTER_CHANGE]->(f)
}
CALL (x) {
  UNWIND $broken AS b
  MERGE (t:File {agent_id: $agent_id, path: b.path})
    ON CREATE SET t.id = b.file_id, t.at = $at
  MERGE (x)-[r:BROKE]->(t)
  SET r.tests = b.tests, r.at = $at
  RETURN count(t) AS broken
}
RETURN broken
