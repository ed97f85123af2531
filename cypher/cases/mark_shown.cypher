// purpose: remember that a Claude Code session's next turn was shown these cases (credited when
//   the turn ends, by cases/credit_session)
// params: $agent_id, $ids (case ids), $session_id
// returns: marked (how many cases)
// mode: write
UNWIND $ids AS cid
MATCH (c:Case {id: cid})
WHERE c.agent_id = $agent_id
SET c.shown_session = $session_id
RETURN count(c) AS marked
