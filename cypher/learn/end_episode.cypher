// purpose: end an episode, once: ended_at, outcome, and the summary and lessons when given
//   (null keeps what the turns noted); open_session is removed so the session can start a new
//   one. Ending it again changes nothing.
// params: $agent_id, $episode_id, $outcome, $summary (or null), $lessons (list or null),
//   $lessons_text (or null), $now (datetime)
// returns: episode (map of the Episode's properties), ended (true when this call ended it)
MATCH (e:Episode {id: $episode_id})
WHERE e.agent_id = $agent_id
WITH e, e.ended_at IS NULL AS open
CALL (e, open) {
  WITH e WHERE open
  SET e.ended_at = $now,
      e.outcome = $outcome,
      e.summary = coalesce($summary, e.summary),
      e.lessons = coalesce($lessons, e.lessons, []),
      e.lessons_text = coalesce($lessons_text, e.lessons_text, "")
  REMOVE e.open_session
}
RETURN properties(e) AS episode, open AS ended
