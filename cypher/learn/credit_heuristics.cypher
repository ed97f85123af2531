// purpose: credit by outcome (ACE's counters): every heuristic a decision APPLIED gets
//   helpful + 1 when it succeeded, harmful + 1 when it failed; never for a decision that
//   ran as a dry run (an Execution with dry_run true, or run by the dry_run target), which
//   is not an outcome
// params: $agent_id, $decision_id, $success (bool), $now (datetime)
// returns: credited (how many heuristics moved)
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
  AND NOT EXISTS {
    (d)-[:EXECUTED_AS]->(e:Execution) WHERE e.dry_run = true OR e.target = "dry_run"
  }
MATCH (d)-[:APPLIED]->(h:Heuristic)
SET h.helpful = coalesce(h.helpful, 0) + CASE WHEN $success THEN 1 ELSE 0 END,
    h.harmful = coalesce(h.harmful, 0) + CASE WHEN $success THEN 0 ELSE 1 END,
    h.last_credited = $now
RETURN count(h) AS credited
