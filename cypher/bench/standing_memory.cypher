// purpose: the recall benchmark's smaller memories in one statement: pattern statistics,
//   procedures, censors, goals, heuristics and one working memory
// params: $agent_id, $patterns, $procedures, $censors, $goals, $heuristics, $working_memory
//   (each a list of maps of node properties, agent_id included)
// returns: written (1)
CALL () {
  UNWIND $patterns AS row
  CREATE (n:Pattern)
  SET n = row
}
CALL () {
  UNWIND $procedures AS row
  CREATE (n:Procedure)
  SET n = row
}
CALL () {
  UNWIND $censors AS row
  CREATE (n:Censor)
  SET n = row
}
CALL () {
  UNWIND $goals AS row
  CREATE (n:Goal)
  SET n = row
}
CALL () {
  UNWIND $heuristics AS row
  CREATE (n:Heuristic)
  SET n = row
}
CALL () {
  UNWIND $working_memory AS row
  CREATE (n:WorkingMemory)
  SET n = row
}
RETURN 1 AS written
