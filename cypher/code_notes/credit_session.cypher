// purpose: credit the notes a session's turn was shown by the outcome of the attempt that saw
//   them (each use counts, helpful when it passed, harmful when not) and forget the mark
// params: $agent_id, $session_id, $helpful (boolean), $now (datetime)
// returns: credited (how many notes)
// mode: write
MATCH (n:CodeNote)
USING INDEX n:CodeNote(agent_id, shown_session)
WHERE n.agent_id = $agent_id AND n.shown_session = $session_id
SET n.uses = coalesce(n.uses, 0) + 1,
    n.helpful = coalesce(n.helpful, 0) + CASE WHEN $helpful THEN 1 ELSE 0 END,
    n.harmful = coalesce(n.harmful, 0) + CASE WHEN $helpful THEN 0 ELSE 1 END,
    n.last_used = $now
REMOVE n.shown_session
RETURN count(n) AS credited
