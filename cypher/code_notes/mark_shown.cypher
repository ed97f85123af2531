// purpose: remember that a session's next turn was shown these notes (credited when the turn
//   ends, by code_notes/credit_session)
// params: $agent_id, $ids (note ids), $session_id
// returns: marked (how many notes)
// mode: write
UNWIND $ids AS nid
MATCH (n:CodeNote {id: nid})
WHERE n.agent_id = $agent_id
SET n.shown_session = $session_id
RETURN count(n) AS marked
