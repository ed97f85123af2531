// purpose: credit by outcome (ACE's counters): every heuristic a decision or a practice
//   trajectory APPLIED gets helpful + 1 when it succeeded, harmful + 1 when it failed; never
//   for a decision that ran as a dry run (an Execution with dry_run true, or run by the
//   dry_run target), which is not an outcome. One path for the decision loop and practice.
// params: $agent_id, $source_id (a Decision's or a Trajectory's id), $success (bool),
//   $now (datetime)
// returns: credited (how many heuristics moved)
CALL () {
  MATCH (d:Decision {id: $source_id})
  WHERE d.agent_id = $agent_id
    AND NOT EXISTS {
      (d)-[:EXECUTED_AS]->(e:Execution) WHERE e.dry_run = true OR e.target = "dry_run"
    }
  RETURN d AS source
  UNION
  MATCH (t:Trajectory {id: $source_id})
  WHERE t.agent_id = $agent_id
  RETURN t AS source
}
MATCH (source)-[:APPLIED]->(h:Heuristic)
SET h.helpful = coalesce(h.helpful, 0) + CASE WHEN $success THEN 1 ELSE 0 END,
    h.harmful = coalesce(h.harmful, 0) + CASE WHEN $success THEN 0 ELSE 1 END,
    h.last_credited = $now
RETURN count(h) AS credited
