// purpose: a run said again what an active note says (same key): count it, keep the newest
//   wording of the call, the text and the task
// params: $agent_id, $key, $call, $text, $task, $now (datetime)
// returns: id of the note repeated (no row when there is none)
// mode: write
MATCH (n:CodeNote)
USING INDEX n:CodeNote(agent_id, key)
WHERE n.agent_id = $agent_id AND n.key = $key AND n.status = "active"
WITH n ORDER BY n.at, n.id LIMIT 1
SET n.seen = coalesce(n.seen, 1) + 1, n.call = $call, n.text = $text, n.task = $task,
    n.last_seen = $now
RETURN n.id AS id
