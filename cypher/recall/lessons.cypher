// purpose: lessons drawn from outcomes whose reason or type match a full-text query, best
//   first, with the decision each was LEARNED_FROM
// params: $agent_id, $query (a Lucene query string built from escaped words, never empty),
//   $limit
// returns: one row: lessons (list of maps {id, at, decision_id, type, pattern_key,
//   adjustment, reason, score})
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
// note: filtered to this agent as hits stream, best first; see recall/facts for why there is
//   no ORDER BY. The decision is looked up only for the lessons kept.
CALL db.index.fulltext.queryNodes("lesson_text", $query) YIELD node, score
WITH node, score
WHERE node.agent_id = $agent_id
WITH node, score
LIMIT $limit
OPTIONAL CALL (node) {
  MATCH (node)-[:LEARNED_FROM]->(d:Decision)
  RETURN d.id AS learned_from
  LIMIT 1
}
RETURN collect(node {.id, at: toString(node.at), .pattern_key,
                     decision_id: coalesce(node.decision_id, learned_from, ""),
                     type: coalesce(node.type, "lesson"),
                     adjustment: coalesce(node.adjustment, ""),
                     reason: coalesce(node.reason, ""), score: score}) AS lessons
