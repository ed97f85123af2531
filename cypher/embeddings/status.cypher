// purpose: coverage of recall by meaning, per label: the agent's nodes, those with text to
//   embed, those with a vector, and those whose vector comes from $model. Counts every node of
//   the agent once per label (a command, not the hot path).
// params: $agent_id, $model
// returns: label, nodes, with_text, vectors, current, pending (one row per label; pending: what
//   the vector job would embed next, as embeddings/pending selects it)
// mode: read
CALL () {
  MATCH (n:Decision)
  USING INDEX SEEK n:Decision(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, coalesce(n.reasoning, '') AS text
  RETURN "Decision" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Lesson)
  USING INDEX SEEK n:Lesson(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, coalesce(n.type, 'lesson') + ': ' + coalesce(n.reason, '') + CASE WHEN coalesce(n.adjustment, '') <> '' THEN ' (adjustment: ' + n.adjustment + ')' ELSE '' END AS text
  RETURN "Lesson" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Fact)
  USING INDEX SEEK n:Fact(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, coalesce(n.content, '') AS text
  RETURN "Fact" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Procedure)
  USING INDEX SEEK n:Procedure(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, coalesce(n.name, '') + CASE WHEN coalesce(n.domain, '') <> '' THEN ' (' + n.domain + ')' ELSE '' END + CASE WHEN coalesce(n.core_patterns_text, '') <> '' THEN ': ' + n.core_patterns_text ELSE '' END AS text
  RETURN "Procedure" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Episode)
  USING INDEX SEEK n:Episode(agent_id, ended_at)
  WHERE n.agent_id = $agent_id AND n.ended_at IS NOT NULL
  WITH n, coalesce(n.summary, '') + CASE WHEN coalesce(n.lessons_text, '') <> '' THEN ' Lessons: ' + n.lessons_text ELSE '' END AS text
  RETURN "Episode" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Heuristic)
  USING INDEX SEEK n:Heuristic(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, coalesce(n.content, '') AS text
  RETURN "Heuristic" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Censor)
  USING INDEX SEEK n:Censor(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, coalesce(n.trigger_pattern, '') + ': ' + coalesce(n.reason, '') AS text
  RETURN "Censor" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Turn)
  USING INDEX SEEK n:Turn(agent_id, ended_at)
  WHERE n.agent_id = $agent_id AND n.ended_at IS NOT NULL
  WITH n, coalesce(n.prompt, '') + CASE WHEN coalesce(n.response, '') <> '' THEN ' -> ' + n.response ELSE '' END AS text
  RETURN "Turn" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:File)
  USING INDEX SEEK n:File(agent_id, updated_at)
  WHERE n.agent_id = $agent_id AND n.updated_at IS NOT NULL
  WITH n, coalesce(n.path, '') + CASE WHEN coalesce(n.excerpt, '') <> '' THEN ': ' + n.excerpt ELSE '' END AS text
  RETURN "File" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN n.exists = true AND coalesce(n.embedded_hash, '') <> coalesce(n.content_hash, '') THEN 1 END) AS pending
}
RETURN label, nodes, with_text, vectors, current, pending
