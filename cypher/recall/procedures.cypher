// purpose: procedures whose name, domain or core patterns match a full-text query, best first
// params: $agent_id, $query (a Lucene query string built from escaped words, never empty),
//   $limit
// returns: one row: procedures (list of maps {id, at, name, domain, core_patterns,
//   score})
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
// note: filtered to this agent as hits stream, best first; see recall/facts for why there is
//   no ORDER BY.
CALL db.index.fulltext.queryNodes("procedure_text", $query) YIELD node, score
WITH node, score
WHERE node.agent_id = $agent_id
WITH node, score
LIMIT $limit
RETURN collect(node {.id, at: toString(node.at), .name,
                     domain: coalesce(node.domain, ""),
                     core_patterns: coalesce(node.core_patterns, []),
                     score: score}) AS procedures
