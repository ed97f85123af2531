// purpose: test fixture: one WorkingMemory node per row
// params: $agent_id, $rows (maps {id, at, session_id, current_task, current_frame, open_threads})
// returns: id per working memory
UNWIND $rows AS row
CREATE (w:WorkingMemory)
SET w = row, w.agent_id = $agent_id
RETURN w.id AS id
