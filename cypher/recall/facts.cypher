// purpose: facts whose content matches a full-text query, best match first
// params: $agent_id, $query (a Lucene query string built from escaped words, never empty),
//   $limit
// returns: one row: facts (list of maps {id, at, content, confirmations, score})
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
// note: the full-text index holds every agent's facts; hits come best first and are filtered
//   to this agent as they stream, so LIMIT stops early. No ORDER BY: re-sorting by score
//   would make the query read every hit before returning any.
CALL db.index.fulltext.queryNodes("fact_text", $query) YIELD node, score
WITH node, score
WHERE node.agent_id = $agent_id
WITH node, score
LIMIT $limit
RETURN collect(node {.id, at: toString(node.at), .content,
                     confirmations: coalesce(node.confirmations, 1), score: score}) AS facts
