// purpose: coverage of recall by meaning, per label: the agent's nodes, those with text to
//   embed, those with a vector, and those whose vector comes from $model. Counts every node of
//   the agent once per label (a command, not the hot path). The text is the one fragment
//   fragments/recall_text, as embeddings/pending embeds it (a decision only with reasoning).
// params: $agent_id, $model
// returns: label, nodes, with_text, vectors, current, pending (one row per label; pending: what
//   the vector job would embed next, as embeddings/pending selects it)
// mode: read
CALL () {
  MATCH (n:Decision)
  USING INDEX SEEK n:Decision(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Decision" AS label
  WITH n, CASE WHEN coalesce(n.reasoning, '') = '' THEN ''
    ELSE {{ fragments/recall_text }} END AS text
  RETURN "Decision" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Lesson)
  USING INDEX SEEK n:Lesson(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Lesson" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Lesson" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Fact)
  USING INDEX SEEK n:Fact(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Fact" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Fact" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Procedure)
  USING INDEX SEEK n:Procedure(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Procedure" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Procedure" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Episode)
  USING INDEX SEEK n:Episode(agent_id, ended_at)
  WHERE n.agent_id = $agent_id AND n.ended_at IS NOT NULL
  WITH n, "Episode" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Episode" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Heuristic)
  USING INDEX SEEK n:Heuristic(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Heuristic" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Heuristic" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Censor)
  USING INDEX SEEK n:Censor(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Censor" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Censor" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Turn)
  USING INDEX SEEK n:Turn(agent_id, ended_at)
  WHERE n.agent_id = $agent_id AND n.ended_at IS NOT NULL
  WITH n, "Turn" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Turn" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:Commit)
  USING INDEX SEEK n:Commit(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  WITH n, "Commit" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "Commit" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN trim(text) <> "" AND n.embedding_model IS NULL THEN 1 END) AS pending
  UNION ALL
  MATCH (n:File)
  USING INDEX SEEK n:File(agent_id, updated_at)
  WHERE n.agent_id = $agent_id AND n.updated_at IS NOT NULL
  WITH n, "File" AS label
  WITH n, {{ fragments/recall_text }} AS text
  RETURN "File" AS label, count(n) AS nodes, count(CASE WHEN trim(text) <> "" THEN 1 END) AS with_text,
         count(n.embedding_model) AS vectors,
         count(CASE WHEN n.embedding_model = $model THEN 1 END) AS current,
         count(CASE WHEN n.exists = true AND coalesce(n.embedded_hash, '') <> coalesce(n.content_hash, '') THEN 1 END) AS pending
}
RETURN label, nodes, with_text, vectors, current, pending
