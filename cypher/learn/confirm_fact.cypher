// purpose: a fact was seen to hold again: confirmations + 1, last_confirmed_at, and
//   SUPPORTED_BY the episode that confirmed it (when given and it exists)
// params: $agent_id, $fact_id, $episode_id (or null), $now (datetime)
// returns: confirmations (after the update); no row when there is no such fact
MATCH (f:Fact {id: $fact_id})
WHERE f.agent_id = $agent_id
SET f.confirmations = coalesce(f.confirmations, 0) + 1, f.last_confirmed_at = $now
WITH f
CALL (f) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  MERGE (f)-[:SUPPORTED_BY]->(e)
}
RETURN f.confirmations AS confirmations
