// purpose: a new Heuristic, DISTILLED_FROM the trajectories it was distilled from and
//   PRODUCED by its RSI cycle (merged by id: the cycle's own record is written after its
//   crystallization, and fills the node in)
// params: $agent_id, $heuristic (map of Heuristic properties, id and agent_id included),
//   $trajectory_ids, $cycle_id (or null)
// returns: id of the heuristic, distilled_from (how many trajectories it was linked to)
CREATE (h:Heuristic)
SET h = $heuristic
WITH h
CALL (h) {
  UNWIND $trajectory_ids AS tid
  MATCH (t:Trajectory {id: tid})
  WHERE t.agent_id = $agent_id
  MERGE (h)-[:DISTILLED_FROM]->(t)
  RETURN count(t) AS distilled_from
}
CALL (h) {
  WITH h WHERE $cycle_id IS NOT NULL
  MERGE (c:RSICycle {id: $cycle_id})
    ON CREATE SET c.agent_id = $agent_id
  MERGE (c)-[:PRODUCED]->(h)
}
RETURN h.id AS id, distilled_from
