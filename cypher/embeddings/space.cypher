// purpose: the agent's embedding space (the model and dimension its vectors come from, and how
//   many each label holds) and, per label, how many nodes all agents hold (from the count
//   store, no scan): recall by meaning sizes its vector-index requests by the agent's share.
// params: $agent_id
// returns: one row: model, dimensions (null when the agent has no vectors yet), mine (the
//   space's properties: count_<Label> -> n), nodes (map Label -> nodes of every agent)
// mode: read
OPTIONAL MATCH (s:EmbeddingSpace {agent_id: $agent_id})
CALL () { MATCH (n:Decision) RETURN count(n) AS decision_nodes }
CALL () { MATCH (n:Lesson) RETURN count(n) AS lesson_nodes }
CALL () { MATCH (n:Fact) RETURN count(n) AS fact_nodes }
CALL () { MATCH (n:Procedure) RETURN count(n) AS procedure_nodes }
CALL () { MATCH (n:Episode) RETURN count(n) AS episode_nodes }
CALL () { MATCH (n:Heuristic) RETURN count(n) AS heuristic_nodes }
CALL () { MATCH (n:Censor) RETURN count(n) AS censor_nodes }
CALL () { MATCH (n:Turn) RETURN count(n) AS turn_nodes }
CALL () { MATCH (n:File) RETURN count(n) AS file_nodes }
RETURN s.model AS model, s.dimensions AS dimensions, properties(s) AS mine,
       {Decision: decision_nodes, Lesson: lesson_nodes, Fact: fact_nodes, Procedure: procedure_nodes, Episode: episode_nodes, Heuristic: heuristic_nodes, Censor: censor_nodes, Turn: turn_nodes, File: file_nodes} AS nodes
