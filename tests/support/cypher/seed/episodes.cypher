// purpose: test fixture: Episode nodes, with lessons joined for the full-text index
// params: $agent_id, $rows (maps {id, at, session_id, started_at, ended_at, outcome, summary,
//   lessons})
// returns: id per episode
UNWIND $rows AS row
CREATE (e:Episode)
SET e = row, e.agent_id = $agent_id,
    e.lessons_text = reduce(s = "", x IN row.lessons | s + x + "\n")
RETURN e.id AS id
