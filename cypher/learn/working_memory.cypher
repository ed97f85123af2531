// purpose: a session's working memory
// params: $agent_id, $session_id
// returns: working_memory (map of the WorkingMemory's properties); no row before the first turn
// mode: read
MATCH (w:WorkingMemory {agent_id: $agent_id, session_id: $session_id})
RETURN properties(w) AS working_memory
