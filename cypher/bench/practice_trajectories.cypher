// purpose: the transfer benchmark's practice: Trajectory nodes for a bench agent to crystallize
// params: $agent_id, $rows (maps of Trajectory properties, agent_id included)
// returns: id per trajectory
UNWIND $rows AS row
CREATE (t:Trajectory)
SET t = row, t.agent_id = $agent_id
RETURN t.id AS id
