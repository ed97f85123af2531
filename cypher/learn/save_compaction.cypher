// purpose: before Claude Code compacts a session's context, keep on its open episode what the
//   session holds: its working memory (task, frame, open threads), its open decision, and
//   what the turn learned appended to the episode's lessons (no duplicates; lessons_text
//   kept searchable by the episode_text full-text index); an ended episode is left as it is
// params: $agent_id, $episode_id, $task (string), $frame (string or null), $threads (list of
//   strings), $decision_id (string or null), $lessons (list of strings), $now (datetime)
// returns: id of the episode, lessons (how many it now holds), compactions (how many times it
//   was kept before a compaction); no row when the episode is not open
MATCH (e:Episode {id: $episode_id})
WHERE e.agent_id = $agent_id AND e.ended_at IS NULL
WITH e, coalesce(e.lessons, []) AS old
WITH e, old + [lesson IN $lessons WHERE NOT lesson IN old] AS lessons
SET e.kept_task = $task,
    e.kept_frame = $frame,
    e.kept_threads = $threads,
    e.kept_decision_id = $decision_id,
    e.compacted_at = $now,
    e.compactions = coalesce(e.compactions, 0) + 1,
    e.lessons = lessons,
    e.lessons_text = reduce(text = "", lesson IN lessons |
                            text + CASE WHEN text = "" THEN "" ELSE "\n" END + lesson)
RETURN e.id AS id, size(lessons) AS lessons, e.compactions AS compactions
