// purpose: what a session is busy with now: one WorkingMemory per (agent, session), created
//   on first use; current_task and current_frame replaced, open_threads replaced when given
// params: $agent_id, $session_id, $id (for a new node), $now (datetime), $current_task,
//   $current_frame (or null), $open_threads (list, or null to keep them)
// returns: working_memory (map of the WorkingMemory's properties)
MERGE (w:WorkingMemory {agent_id: $agent_id, session_id: $session_id})
  ON CREATE SET w.id = $id, w.at = $now, w.open_threads = []
SET w.current_task = $current_task,
    w.current_frame = $current_frame,
    w.open_threads = coalesce($open_threads, w.open_threads, []),
    w.updated_at = $now
RETURN properties(w) AS working_memory
