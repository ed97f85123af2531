// purpose: hybrid recall's word search: the agent's nodes of each label whose text matches
//   $query, best first. $query carries +agent_id:"…" (graph.store.lucene.agent_query), so
//   Lucene returns this agent's hits only; the agent_id test stays as the guarantee.
// params: $agent_id, $query (Lucene query string, built from escaped words), $labels, $limit
//   (per label)
// returns: label, id, text, at (ISO string), path (Decision), score (Lucene's)
// mode: read
CALL () {
  WITH 1 AS one WHERE $limit > 0 AND "Fact" IN $labels
  CALL db.index.fulltext.queryNodes("fact_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Fact" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Procedure" IN $labels
  CALL db.index.fulltext.queryNodes("procedure_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Procedure" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Episode" IN $labels
  CALL db.index.fulltext.queryNodes("episode_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Episode" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Lesson" IN $labels
  CALL db.index.fulltext.queryNodes("lesson_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Lesson" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Heuristic" IN $labels
  CALL db.index.fulltext.queryNodes("heuristic_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Heuristic" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Decision" IN $labels
  CALL db.index.fulltext.queryNodes("decision_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Decision" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Censor" IN $labels
  CALL db.index.fulltext.queryNodes("censor_words", $query, {limit: $limit}) YIELD node AS n, score
  WHERE n.agent_id = $agent_id
  RETURN "Censor" AS label, n, score
}
RETURN label, n.id AS id, toString(n.at) AS at, n.path AS path, score,
       CASE label
       WHEN "Fact" THEN coalesce(n.content, '')
       WHEN "Procedure" THEN coalesce(n.name, '') + CASE WHEN coalesce(n.domain, '') <> '' THEN ' (' + n.domain + ')' ELSE '' END + CASE WHEN coalesce(n.core_patterns_text, '') <> '' THEN ': ' + n.core_patterns_text ELSE '' END
       WHEN "Episode" THEN coalesce(n.summary, '') + CASE WHEN coalesce(n.lessons_text, '') <> '' THEN ' Lessons: ' + n.lessons_text ELSE '' END
       WHEN "Lesson" THEN coalesce(n.type, 'lesson') + ': ' + coalesce(n.reason, '') + CASE WHEN coalesce(n.adjustment, '') <> '' THEN ' (adjustment: ' + n.adjustment + ')' ELSE '' END
       WHEN "Heuristic" THEN coalesce(n.content, '')
       WHEN "Decision" THEN coalesce(n.reasoning, '')
       WHEN "Censor" THEN coalesce(n.trigger_pattern, '') + ': ' + coalesce(n.reason, '')
       END AS text
ORDER BY score DESC
