// purpose: one practice attempt (seed 003 C1, C2), PRACTICED_IN from the desire it served
// params: $agent_id, $trajectory (map of Trajectory properties), $desire_id
// returns: id of the trajectory
CREATE (t:Trajectory)
SET t = $trajectory
WITH t
CALL (t) {
  MATCH (d:Desire {id: $desire_id})
  WHERE d.agent_id = $agent_id
  CREATE (d)-[:PRACTICED_IN]->(t)
}
RETURN t.id AS id
