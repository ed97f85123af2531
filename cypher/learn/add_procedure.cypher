// purpose: a new procedure (core_patterns_text keeps its patterns searchable by the
//   procedure_text full-text index), SUPPORTED_BY the episode it came from
// params: $agent_id, $procedure (map of Procedure properties, core_patterns_text and
//   confirmations included; one a client told `nous mcp` about also carries source: where
//   it came from), $episode_id (or null)
// returns: id of the procedure
CREATE (p:Procedure)
SET p = $procedure
WITH p
CALL (p) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  MERGE (p)-[:SUPPORTED_BY]->(e)
}
RETURN p.id AS id
