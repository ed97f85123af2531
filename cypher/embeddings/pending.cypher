// purpose: the next nodes of one label that need a vector, oldest first from $since (the vector
//   job's cursor): no vector yet, or (a File) content changed since its vector. Episodes are
//   taken by ended_at (their summary is written when they end), and so are Claude Code turns
//   (their response), files by updated_at. A decision gets a vector only when it has
//   reasoning (a WAIT without any is churn, not worth one).
// params: $agent_id, $label (one of Decision, Lesson, Fact, Procedure, Episode, Heuristic,
//   Censor, Turn, Commit, Case, File), $since (datetime), $limit
// returns: eid (element id, for the write), id, path (File), content_hash (File), cursor (the
//   ordering time), text (what is embedded: the one fragment fragments/recall_text, the text
//   hybrid recall shows; a File's excerpt is read from disk by the job)
// mode: read
CALL () {
  WITH 1 AS one WHERE $label = "Decision"
  MATCH (n:Decision)
  USING INDEX SEEK n:Decision(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
    AND coalesce(n.reasoning, '') <> ''
  WITH n, "Decision" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Lesson"
  MATCH (n:Lesson)
  USING INDEX SEEK n:Lesson(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, "Lesson" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Fact"
  MATCH (n:Fact)
  USING INDEX SEEK n:Fact(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, "Fact" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Procedure"
  MATCH (n:Procedure)
  USING INDEX SEEK n:Procedure(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, "Procedure" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Episode"
  MATCH (n:Episode)
  USING INDEX SEEK n:Episode(agent_id, ended_at)
  WHERE n.agent_id = $agent_id AND n.ended_at >= $since AND n.embedding_model IS NULL
  WITH n, "Episode" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.ended_at LIMIT $limit
  RETURN n, n.ended_at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Heuristic"
  MATCH (n:Heuristic)
  USING INDEX SEEK n:Heuristic(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, "Heuristic" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Censor"
  MATCH (n:Censor)
  USING INDEX SEEK n:Censor(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, "Censor" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Turn"
  MATCH (n:Turn)
  USING INDEX SEEK n:Turn(agent_id, ended_at)
  WHERE n.agent_id = $agent_id AND n.ended_at >= $since AND n.embedding_model IS NULL
  WITH n, "Turn" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.ended_at LIMIT $limit
  RETURN n, n.ended_at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Commit"
  MATCH (n:Commit)
  USING INDEX SEEK n:Commit(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, "Commit" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "Case"
  MATCH (n:Case)
  USING INDEX SEEK n:Case(agent_id, at)
  WHERE n.agent_id = $agent_id AND n.at >= $since AND n.embedding_model IS NULL
  WITH n, coalesce(n.task, '') + CASE WHEN coalesce(n.error, '') <> '' THEN ' Error: ' + n.error ELSE '' END AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.at LIMIT $limit
  RETURN n, n.at AS cursor, text
  UNION ALL
  WITH 1 AS one WHERE $label = "File"
  MATCH (n:File)
  USING INDEX SEEK n:File(agent_id, updated_at)
  WHERE n.agent_id = $agent_id AND n.updated_at >= $since AND n.exists = true AND coalesce(n.embedded_hash, '') <> coalesce(n.content_hash, '')
  WITH n, "File" AS label
  WITH n, {{ fragments/recall_text }} AS text
  WHERE trim(text) <> ""
  WITH n, text ORDER BY n.agent_id, n.updated_at LIMIT $limit
  RETURN n, n.updated_at AS cursor, text
}
RETURN elementId(n) AS eid, n.id AS id, n.path AS path, n.content_hash AS content_hash,
       cursor, text
