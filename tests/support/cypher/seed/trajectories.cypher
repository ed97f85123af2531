// purpose: test fixture: Trajectory nodes, as part 1's practice stores them
// params: $agent_id, $rows (maps of Trajectory properties: id, at, domain, problem, success …)
// returns: id per trajectory
UNWIND $rows AS row
CREATE (t:Trajectory)
SET t = row, t.agent_id = $agent_id
RETURN t.id AS id
