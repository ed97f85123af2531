// purpose: remove up to $limit vectors of one label from the agent's nodes (re-embedding with
//   another model starts from none); run again until it clears 0
// params: $agent_id, $label (an allow-listed label, see pending), $limit
// returns: cleared (how many nodes lost their vector)
// mode: write
CALL () {
  WITH 1 AS one WHERE $label = "Decision"
  MATCH (n:Decision)
  USING INDEX SEEK n:Decision(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Lesson"
  MATCH (n:Lesson)
  USING INDEX SEEK n:Lesson(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Fact"
  MATCH (n:Fact)
  USING INDEX SEEK n:Fact(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Procedure"
  MATCH (n:Procedure)
  USING INDEX SEEK n:Procedure(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Episode"
  MATCH (n:Episode)
  USING INDEX SEEK n:Episode(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Heuristic"
  MATCH (n:Heuristic)
  USING INDEX SEEK n:Heuristic(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Censor"
  MATCH (n:Censor)
  USING INDEX SEEK n:Censor(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "Turn"
  MATCH (n:Turn)
  USING INDEX SEEK n:Turn(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
  UNION ALL
  WITH 1 AS one WHERE $label = "File"
  MATCH (n:File)
  USING INDEX SEEK n:File(agent_id, embedding_model)
  WHERE n.agent_id = $agent_id AND n.embedding_model IS NOT NULL
  WITH n LIMIT $limit
  REMOVE n.embedding, n.embedding_model, n.embedding_dims, n.embedded_at, n.embedded_hash
  RETURN count(n) AS cleared
}
RETURN sum(cleared) AS cleared
