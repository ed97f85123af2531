// purpose: recall by meaning: the agent's nodes whose vector is nearest $vector, per label,
//   best first. A label in $exact is searched exactly over the agent's own vectors (a small
//   agent beside a big one: the HNSW index would hand back other agents' hits first); any
//   other through its vector index with $k[label] candidates (over-fetched by the caller in
//   proportion to the agent's share of the label), then filtered by agent and model.
//   Without $vector, the vector of the File at $path is the query (the daemon's file-event
//   recall: "similar by meaning", no embedding on the decision loop); that file is left out.
// params: $agent_id, $vector (list of floats, or null), $path (or null), $model (vectors of another model are ignored),
//   $labels (which labels to search), $exact (labels searched exactly), $k (map label -> k),
//   $limit (per label)
// returns: label, id, text (what was embedded), at (ISO string), path (Decision, File), score
//   (cosine mapped to [0, 1], as the index gives it)
// mode: read
OPTIONAL CALL () {
  WITH 1 AS one WHERE $vector IS NULL AND $path IS NOT NULL
  MATCH (f:File)
  USING INDEX SEEK f:File(agent_id, path)
  WHERE f.agent_id = $agent_id AND f.path = $path AND f.embedding_model = $model
  RETURN f.embedding AS file_vector
}
WITH coalesce($vector, file_vector) AS query_vector
WHERE query_vector IS NOT NULL
CALL (query_vector) {
  WITH 1 AS one WHERE $limit > 0 AND "Decision" IN $labels AND NOT "Decision" IN $exact
  CALL db.index.vector.queryNodes("decision_embedding", $k["Decision"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Decision" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Decision" IN $labels AND "Decision" IN $exact
  MATCH (n:Decision)
  USING INDEX SEEK n:Decision(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Decision" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Lesson" IN $labels AND NOT "Lesson" IN $exact
  CALL db.index.vector.queryNodes("lesson_embedding", $k["Lesson"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Lesson" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Lesson" IN $labels AND "Lesson" IN $exact
  MATCH (n:Lesson)
  USING INDEX SEEK n:Lesson(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Lesson" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Fact" IN $labels AND NOT "Fact" IN $exact
  CALL db.index.vector.queryNodes("fact_embedding", $k["Fact"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Fact" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Fact" IN $labels AND "Fact" IN $exact
  MATCH (n:Fact)
  USING INDEX SEEK n:Fact(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Fact" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Procedure" IN $labels AND NOT "Procedure" IN $exact
  CALL db.index.vector.queryNodes("procedure_embedding", $k["Procedure"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Procedure" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Procedure" IN $labels AND "Procedure" IN $exact
  MATCH (n:Procedure)
  USING INDEX SEEK n:Procedure(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Procedure" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Episode" IN $labels AND NOT "Episode" IN $exact
  CALL db.index.vector.queryNodes("episode_embedding", $k["Episode"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Episode" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Episode" IN $labels AND "Episode" IN $exact
  MATCH (n:Episode)
  USING INDEX SEEK n:Episode(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Episode" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Heuristic" IN $labels AND NOT "Heuristic" IN $exact
  CALL db.index.vector.queryNodes("heuristic_embedding", $k["Heuristic"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Heuristic" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Heuristic" IN $labels AND "Heuristic" IN $exact
  MATCH (n:Heuristic)
  USING INDEX SEEK n:Heuristic(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Heuristic" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Censor" IN $labels AND NOT "Censor" IN $exact
  CALL db.index.vector.queryNodes("censor_embedding", $k["Censor"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Censor" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Censor" IN $labels AND "Censor" IN $exact
  MATCH (n:Censor)
  USING INDEX SEEK n:Censor(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Censor" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Turn" IN $labels AND NOT "Turn" IN $exact
  CALL db.index.vector.queryNodes("turn_embedding", $k["Turn"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "Turn" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "Turn" IN $labels AND "Turn" IN $exact
  MATCH (n:Turn)
  USING INDEX SEEK n:Turn(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "Turn" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "File" IN $labels AND NOT "File" IN $exact
  CALL db.index.vector.queryNodes("file_embedding", $k["File"], query_vector) YIELD node AS n, score
  WITH n, score WHERE n.agent_id = $agent_id AND n.embedding_model = $model AND n.path <> coalesce($path, '')
  WITH n, score ORDER BY score DESC LIMIT $limit
  RETURN "File" AS label, n, score
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND "File" IN $labels AND "File" IN $exact
  MATCH (n:File)
  USING INDEX SEEK n:File(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model = $model AND n.path <> coalesce($path, '')
  WITH n, vector.similarity.cosine(n.embedding, query_vector) AS score
  ORDER BY score DESC LIMIT $limit
  RETURN "File" AS label, n, score
}
RETURN label, n.id AS id, toString(n.at) AS at, n.path AS path, score,
       CASE label
       WHEN "Decision" THEN coalesce(n.reasoning, '')
       WHEN "Lesson" THEN coalesce(n.type, 'lesson') + ': ' + coalesce(n.reason, '') + CASE WHEN coalesce(n.adjustment, '') <> '' THEN ' (adjustment: ' + n.adjustment + ')' ELSE '' END
       WHEN "Fact" THEN coalesce(n.content, '')
       WHEN "Procedure" THEN coalesce(n.name, '') + CASE WHEN coalesce(n.domain, '') <> '' THEN ' (' + n.domain + ')' ELSE '' END + CASE WHEN coalesce(n.core_patterns_text, '') <> '' THEN ': ' + n.core_patterns_text ELSE '' END
       WHEN "Episode" THEN coalesce(n.summary, '') + CASE WHEN coalesce(n.lessons_text, '') <> '' THEN ' Lessons: ' + n.lessons_text ELSE '' END
       WHEN "Heuristic" THEN coalesce(n.content, '')
       WHEN "Censor" THEN coalesce(n.trigger_pattern, '') + ': ' + coalesce(n.reason, '')
       WHEN "Turn" THEN toString(coalesce(n.prompt_excerpt, n.prompt, n.summary, ''))
       WHEN "File" THEN coalesce(n.path, '') + CASE WHEN coalesce(n.excerpt, '') <> '' THEN ': ' + n.excerpt ELSE '' END
       END AS text
ORDER BY score DESC
