// purpose: episodes whose summary or lessons match a full-text query, best match first
// params: $agent_id, $query (a Lucene query string built from escaped words, never empty),
//   $limit
// returns: one row: episodes (list of maps {id, at, session_id, started_at,
//   ended_at, outcome, summary, lessons, score})
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
// note: filtered to this agent as hits stream, best first; see recall/facts for why there is
//   no ORDER BY.
CALL db.index.fulltext.queryNodes("episode_text", $query) YIELD node, score
WITH node, score
WHERE node.agent_id = $agent_id
WITH node, score
LIMIT $limit
RETURN collect(node {.id, at: toString(node.at), .outcome,
                     ended_at: toString(node.ended_at),
                     session_id: coalesce(node.session_id, ""),
                     started_at: toString(coalesce(node.started_at, node.at)),
                     summary: coalesce(node.summary, ""), lessons: coalesce(node.lessons, []),
                     score: score}) AS episodes
