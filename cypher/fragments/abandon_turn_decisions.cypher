// purpose: the subquery that closes the decisions deliberated by turns just marked abandoned
//   (their Stop never came): status closed, the outcome saying why, nothing learned from them.
//   Written once for chat/open_turn (a new prompt finds the last turn still open) and
//   chat/close_session_turns (the session ended with turns still open).
// params: none of its own; in scope where it is included: stale (a list of Turn nodes), $now
// returns: nothing (a unit subquery; included by {{ fragments/abandon_turn_decisions }}; never
//   run alone)
CALL (stale) {
  UNWIND stale AS turn
  MATCH (turn)-[:FOR]->(d:Decision {status: "deliberating"})
  SET d.status = "closed", d.outcome = "abandoned: the turn's Stop never came",
      d.outcome_at = $now
}
