// purpose: the agent's active cases of a domain (or all), oldest first, with their vectors when
//   they have one: the pool recall by meaning, random draws and the pruner work from (the bank
//   is capped, so it is small)
// params: $agent_id, $domain (or null), $limit
// returns: case (properties without the embedding), embedding (list of floats, or null)
// mode: read
MATCH (c:Case)
USING INDEX c:Case(agent_id, status)
WHERE c.agent_id = $agent_id AND c.status = "active" AND ($domain IS NULL OR c.domain = $domain)
RETURN c {.*, embedding: null} AS case, c.embedding AS embedding
ORDER BY c.at, c.id
LIMIT $limit
