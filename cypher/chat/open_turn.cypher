// purpose: open a Claude Code turn: closes any turn of the session still open (a Stop that never
//   came: the user interrupted it) and the decision it deliberated (closed, its outcome that
//   the turn was abandoned: nothing learned from it), then creates the new one, IN_EPISODE its
//   episode and FOR its decision when given, and the turn's audit Event (turn_started) when
//   given: one round trip for both
// params: $agent_id, $turn (map of the Turn's properties), $episode_id (or null),
//   $decision_id (or null), $now (datetime), $event (map of Event properties, or null)
// returns: id (the new turn's id)
OPTIONAL MATCH (stale:Turn {agent_id: $agent_id, session_id: $turn.session_id, status: "open"})
SET stale.status = "abandoned", stale.ended_at = $now
WITH collect(stale) AS stale
{{ fragments/abandon_turn_decisions }}
CREATE (t:Turn)
SET t = $turn, t.agent_id = $agent_id
WITH t
OPTIONAL MATCH (e:Episode {agent_id: $agent_id, id: $episode_id})
FOREACH (_ IN CASE WHEN e IS NULL THEN [] ELSE [1] END | MERGE (t)-[:IN_EPISODE]->(e))
WITH t
OPTIONAL MATCH (d:Decision {agent_id: $agent_id, id: $decision_id})
FOREACH (_ IN CASE WHEN d IS NULL THEN [] ELSE [1] END | MERGE (t)-[:FOR]->(d))
FOREACH (_ IN CASE WHEN $event IS NULL THEN [] ELSE [1] END | CREATE (ev:Event) SET ev = $event)
RETURN t.id AS id
