// purpose: close a Claude Code turn with what came of it (Stop): the response, the outcome and
//   the surprise of its assessment
// params: $agent_id, $turn_id, $response, $outcome, $surprise (float), $now (datetime)
// returns: id; no row when there is no such open turn
MATCH (t:Turn {agent_id: $agent_id, id: $turn_id})
WHERE t.status = "open"
SET t.status = "closed", t.response = $response, t.outcome = $outcome,
    t.surprise = $surprise, t.ended_at = $now
RETURN t.id AS id
