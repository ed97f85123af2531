// purpose: what an INVESTIGATE decision's questions find, in one round trip: full-text hits
//   for the questions over facts, lessons, episodes and past decisions (a decision shown as
//   recall shows it, fragments/recall_text: what it did, how it came out and why); the file's
//   own history; the files changed within $window_s seconds of its changes; and the outcomes
//   of decisions on the same path pattern, per decision type and template
// params: $agent_id, $query (Lucene query from the questions, "" for none), $decision_query
//   (the same words for this agent only, graph.store.lucene.agent_query: past reasoning is
//   found in recall_words, which holds agent_id; "" for none), $path (or null),
//   $path_pattern (or null), $window_s (seconds), $limit
// returns: one row: texts (list of {id, kind, text}), history (list of {at, type}),
//   together (list of paths), outcomes (list of {type, template, total, successes})
// mode: read
CALL () {
  CALL () {
    WITH 1 AS one WHERE $query <> ""
    CALL db.index.fulltext.queryNodes("fact_text", $query) YIELD node, score
    WITH node, score WHERE node.agent_id = $agent_id
    RETURN node.id AS id, "fact" AS kind, node.content AS text, score
    LIMIT 5
    UNION ALL
    WITH 1 AS one WHERE $query <> ""
    CALL db.index.fulltext.queryNodes("lesson_text", $query) YIELD node, score
    WITH node, score WHERE node.agent_id = $agent_id
    RETURN node.id AS id, "lesson" AS kind, node.type + ": " + node.reason AS text, score
    LIMIT 5
    UNION ALL
    WITH 1 AS one WHERE $query <> ""
    CALL db.index.fulltext.queryNodes("episode_text", $query) YIELD node, score
    WITH node, score WHERE node.agent_id = $agent_id
    RETURN node.id AS id, "episode" AS kind, coalesce(node.summary, "") AS text, score
    LIMIT 5
    UNION ALL
    WITH 1 AS one WHERE $decision_query <> ""
    CALL db.index.fulltext.queryNodes("recall_words", $decision_query) YIELD node, score
    WITH node AS n, score, "Decision" AS label
    WHERE n:Decision AND n.agent_id = $agent_id AND n.outcome IS NOT NULL
    RETURN n.id AS id, "decision" AS kind, {{ fragments/recall_text }} AS text, score
    LIMIT 5
  }
  WITH id, kind, text, score ORDER BY score DESC LIMIT $limit
  RETURN collect({id: id, kind: kind, text: text}) AS texts
}
CALL () {
  OPTIONAL MATCH (o:Observation)
  WHERE o.agent_id = $agent_id AND o.path = $path AND o.at IS NOT NULL
  WITH o ORDER BY o.at DESC LIMIT $limit
  RETURN collect(CASE WHEN o IS NULL THEN null ELSE {at: toString(o.at), type: o.type} END)
         AS history
}
CALL () {
  OPTIONAL MATCH (o:Observation)
  WHERE o.agent_id = $agent_id AND o.path = $path AND o.at IS NOT NULL
  WITH o ORDER BY o.at DESC LIMIT 5
  OPTIONAL MATCH (other:Observation)
  WHERE other.agent_id = $agent_id AND o IS NOT NULL
    AND other.at >= o.at - duration({seconds: $window_s})
    AND other.at <= o.at + duration({seconds: $window_s})
    AND other.path IS NOT NULL AND other.path <> $path
  WITH DISTINCT other.path AS together WHERE together IS NOT NULL
  WITH together ORDER BY together LIMIT $limit
  RETURN collect(together) AS together
}
CALL () {
  OPTIONAL MATCH (d:Decision)
  WHERE d.agent_id = $agent_id AND d.path_pattern = $path_pattern AND d.at IS NOT NULL
    AND d.outcome_success IS NOT NULL
  WITH d.type AS type, d.template AS template, count(d) AS total,
       sum(CASE WHEN d.outcome_success THEN 1 ELSE 0 END) AS successes
  WHERE total > 0
  RETURN collect({type: type, template: template, total: total, successes: successes})
         AS outcomes
}
RETURN texts, history, together, outcomes
