// purpose: active censors that match a text: by the censor_text full-text index (trigger and
//   reason) and by exact trigger; an exact match ranks first
// params: $agent_id, $query (Lucene query with special characters escaped, or "" to skip the
//   full-text part), $text (the text itself, for the exact match), $limit
// returns: censor (map of the Censor's properties), score (full-text score; exact matches
//   rank above every full-text score), exact (bool)
// mode: read
CALL () {
  MATCH (c:Censor)
  WHERE c.agent_id = $agent_id AND c.trigger_pattern = $text
  RETURN c, 0.0 AS score, true AS exact
  UNION
  WITH $query AS query
  WHERE query <> ""
  CALL db.index.fulltext.queryNodes("censor_text", query) YIELD node, score
  WHERE node.agent_id = $agent_id
  RETURN node AS c, score, false AS exact
}
WITH c, max(score) AS score, max(CASE WHEN exact THEN 1 ELSE 0 END) = 1 AS exact
WHERE c.status = "active"
RETURN properties(c) AS censor, score, exact
ORDER BY exact DESC, score DESC, c.at
LIMIT $limit
