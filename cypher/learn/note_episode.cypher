// purpose: record one turn in an open episode: the latest summary, its outcome, the turn
//   count, and new lessons appended (no duplicates; lessons_text keeps them searchable by the
//   episode_text full-text index); an ended episode is left as it is
// params: $agent_id, $episode_id, $summary, $outcome, $lessons (list of strings)
// returns: id of the episode, noted (false when the episode had already ended)
MATCH (e:Episode {id: $episode_id})
WHERE e.agent_id = $agent_id
WITH e, e.ended_at IS NULL AS open
CALL (e, open) {
  WITH e WHERE open
  WITH e, coalesce(e.lessons, []) AS old
  WITH e, old + [lesson IN $lessons WHERE NOT lesson IN old] AS lessons
  SET e.summary = $summary,
      e.last_outcome = $outcome,
      e.turns = coalesce(e.turns, 0) + 1,
      e.lessons = lessons,
      e.lessons_text = reduce(text = "", lesson IN lessons |
                              text + CASE WHEN text = "" THEN "" ELSE "\n" END + lesson)
}
RETURN e.id AS id, open AS noted
