// purpose: a heuristic's paired trial (HeuristicTrial, TRIED_IN from the heuristic,
//   PRODUCED by its cycle when there is one), and the verdict's status: a candidate becomes
//   active or rejected; a heuristic no longer a candidate keeps its status
// params: $agent_id, $heuristic_id, $trial (map of HeuristicTrial properties), $status
//   (active, rejected, or null to leave it), $summary (the verdict in words),
//   $cycle_id (or null)
// returns: id of the trial, status (the heuristic's, after); no row when there is no such
//   heuristic
MATCH (h:Heuristic {id: $heuristic_id})
WHERE h.agent_id = $agent_id
CREATE (t:HeuristicTrial)
SET t = $trial
MERGE (h)-[:TRIED_IN]->(t)
SET h.status = CASE WHEN h.status = "candidate" AND $status IS NOT NULL THEN $status
                    ELSE h.status END,
    h.trial_summary = $summary
WITH h, t
CALL (t) {
  WITH t WHERE $cycle_id IS NOT NULL
  MERGE (c:RSICycle {id: $cycle_id})
    ON CREATE SET c.agent_id = $agent_id
  MERGE (c)-[:PRODUCED]->(t)
}
RETURN t.id AS id, h.status AS status
