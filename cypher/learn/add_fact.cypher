// purpose: a new fact, SUPPORTED_BY the episode it came from (when that episode exists)
// params: $agent_id, $fact (map of Fact properties; one a client told `nous mcp`
//   about also carries source: where it came from), $episode_id (or null)
// returns: id of the fact
CREATE (f:Fact)
SET f = $fact
WITH f
CALL (f) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  MERGE (f)-[:SUPPORTED_BY]->(e)
}
RETURN f.id AS id
