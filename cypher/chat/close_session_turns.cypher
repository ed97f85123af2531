// purpose: at the end of a session, mark every turn still open as abandoned (its Stop never came)
//   and close the decision each deliberated (its outcome that the turn was abandoned: nothing
//   is learned from it, and no decision is left deliberating after its session)
// params: $agent_id, $session_id, $now (datetime)
// returns: closed (how many turns were closed)
OPTIONAL MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id, status: "open"})
SET t.status = "abandoned", t.ended_at = $now
WITH collect(t) AS stale
{{ fragments/abandon_turn_decisions }}
RETURN size(stale) AS closed
