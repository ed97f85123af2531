// purpose: a procedure worked again: confirmations + 1, last_confirmed_at, and SUPPORTED_BY
//   the episode that confirmed it (when given and it exists)
// params: $agent_id, $procedure_id, $episode_id (or null), $now (datetime)
// returns: confirmations (after the update); no row when there is no such procedure
MATCH (p:Procedure {id: $procedure_id})
WHERE p.agent_id = $agent_id
SET p.confirmations = coalesce(p.confirmations, 0) + 1, p.last_confirmed_at = $now
WITH p
CALL (p) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  MERGE (p)-[:SUPPORTED_BY]->(e)
}
RETURN p.confirmations AS confirmations
