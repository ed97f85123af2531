// purpose: at the end of a session, mark every turn still open as abandoned (its Stop never came)
// params: $agent_id, $session_id, $now (datetime)
// returns: closed (how many turns were closed)
OPTIONAL MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id, status: "open"})
SET t.status = "abandoned", t.ended_at = $now
RETURN count(t) AS closed
