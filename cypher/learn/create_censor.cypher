// purpose: create a censor (seed 004: severity warn, status active at first), LEARNED_FROM the
//   Execution or Episode it was learned from when $source_id names one
// params: $agent_id, $censor (map of Censor properties), $source_id (an Execution or Episode
//   id, or null)
// returns: id of the censor, sources (how many LEARNED_FROM relationships were made: 0 or 1)
CREATE (c:Censor)
SET c = $censor
WITH c
CALL (c) {
  OPTIONAL MATCH (x:Execution {id: $source_id})
  OPTIONAL MATCH (e:Episode {id: $source_id})
  WITH c, coalesce(x, e) AS source
  WHERE source IS NOT NULL AND source.agent_id = $agent_id
  CREATE (c)-[:LEARNED_FROM]->(source)
  RETURN count(source) AS sources
}
RETURN c.id AS id, sources
