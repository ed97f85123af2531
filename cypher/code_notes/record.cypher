// purpose: write one CodeNote, FROM the Claude Code turn it came from and IN_EPISODE its
//   episode (each link only when that node is the agent's)
// params: $agent_id, $note (map of CodeNote properties), $turn_id (or null), $episode_id (or null)
// returns: id of the note
// mode: write
CREATE (n:CodeNote)
SET n = $note
WITH n
CALL (n) {
  MATCH (t:Turn {id: $turn_id})
  WHERE t.agent_id = $agent_id
  CREATE (n)-[:FROM]->(t)
}
CALL (n) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  CREATE (n)-[:IN_EPISODE]->(e)
}
RETURN n.id AS id
