// purpose: credit the cases a session's turn was shown by the turn's outcome (each use counts,
//   helpful when the turn succeeded, harmful when not) and forget the mark
// params: $agent_id, $session_id, $helpful (boolean), $now (datetime)
// returns: credited (how many cases)
// mode: write
MATCH (c:Case)
USING INDEX c:Case(agent_id, shown_session)
WHERE c.agent_id = $agent_id AND c.shown_session = $session_id
SET c.uses = coalesce(c.uses, 0) + 1,
    c.helpful = coalesce(c.helpful, 0) + CASE WHEN $helpful THEN 1 ELSE 0 END,
    c.harmful = coalesce(c.harmful, 0) + CASE WHEN $helpful THEN 0 ELSE 1 END,
    c.last_used = $now
REMOVE c.shown_session
RETURN count(c) AS credited
