// purpose: what one session is busy with now
// params: $agent_id, $session_id
// returns: one row: working_memory (map {id, at, session_id, current_task,
//   current_frame, open_threads}, or null when the session has none)
// mode: read
// note: times come as ISO strings (see recall/past_decisions for why).
OPTIONAL MATCH (w:WorkingMemory)
USING INDEX SEEK w:WorkingMemory(agent_id, session_id)
WHERE w.agent_id = $agent_id AND w.session_id = $session_id
RETURN w {.id, at: toString(w.at), .session_id, .current_frame,
          current_task: coalesce(w.current_task, ""),
          open_threads: coalesce(w.open_threads, [])} AS working_memory
LIMIT 1
