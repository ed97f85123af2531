// purpose: the agent's active cases found by words (the case_words full-text index, asked for
//   this agent's hits only), best first, in one domain or all
// params: $agent_id, $query (Lucene query from graph.store.lucene.agent_query, non-empty),
//   $domain (or null), $limit
// returns: case (the node's properties, without its embedding), score (Lucene's)
// mode: read
CALL db.index.fulltext.queryNodes("case_words", $query, {limit: $limit * 4})
  YIELD node AS c, score
WITH c, score
WHERE c.agent_id = $agent_id AND c.status = "active" AND ($domain IS NULL OR c.domain = $domain)
RETURN c {.*, embedding: null} AS case, score
ORDER BY score DESC
LIMIT $limit
