// purpose: write one verified Case, FROM the trajectory or Claude Code turn it came from and
//   IN_EPISODE its episode (each link only when that node is the agent's)
// params: $agent_id, $case (map of Case properties), $from_id (a Trajectory or Turn id, or
//   null), $episode_id (or null)
// returns: id of the case
// mode: write
CREATE (c:Case)
SET c = $case
WITH c
CALL (c) {
  MATCH (t:Trajectory {id: $from_id})
  WHERE t.agent_id = $agent_id
  CREATE (c)-[:FROM]->(t)
}
CALL (c) {
  MATCH (t:Turn {id: $from_id})
  WHERE t.agent_id = $agent_id
  CREATE (c)-[:FROM]->(t)
}
CALL (c) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  CREATE (c)-[:IN_EPISODE]->(e)
}
RETURN c.id AS id
