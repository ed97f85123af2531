// purpose: crystallization distilled an active or candidate heuristic again (ExpeL's AGREE):
//   confirmations + 1, last_confirmed_at, and DISTILLED_FROM the new trajectories too
// params: $agent_id, $heuristic_id, $trajectory_ids, $now (datetime)
// returns: confirmations (after the update); no row when there is no such active or
//   candidate heuristic
MATCH (h:Heuristic {id: $heuristic_id})
WHERE h.agent_id = $agent_id AND h.status IN ["active", "candidate"]
SET h.confirmations = coalesce(h.confirmations, 0) + 1, h.last_confirmed_at = $now
WITH h
CALL (h) {
  UNWIND $trajectory_ids AS tid
  MATCH (t:Trajectory {id: tid})
  WHERE t.agent_id = $agent_id
  MERGE (h)-[:DISTILLED_FROM]->(t)
}
RETURN h.confirmations AS confirmations
