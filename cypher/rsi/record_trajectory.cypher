// purpose: one practice attempt (seed 003 C1, C2), PRACTICED_IN from the desire it served,
//   APPLIED to the shown strategies its reply named (each one's usage_count + 1, last_used:
//   as a decision's APPLIED does); the outcome's credit is learn/credit_heuristics
// params: $agent_id, $trajectory (map of Trajectory properties, its applied ids included),
//   $desire_id
// returns: id of the trajectory, applied (how many heuristics it was linked to)
CREATE (t:Trajectory)
SET t = $trajectory
WITH t
CALL (t) {
  MATCH (d:Desire {id: $desire_id})
  WHERE d.agent_id = $agent_id
  CREATE (d)-[:PRACTICED_IN]->(t)
}
CALL (t) {
  UNWIND coalesce(t.applied, []) AS hid
  MATCH (h:Heuristic {id: hid})
  WHERE h.agent_id = $agent_id
  MERGE (t)-[:APPLIED]->(h)
  SET h.usage_count = coalesce(h.usage_count, 0) + 1, h.last_used = t.at
  RETURN count(h) AS applied
}
RETURN t.id AS id, applied
