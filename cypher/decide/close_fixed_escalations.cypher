// purpose: a run of a template passed: the open escalations of that template's earlier failed
//   decisions (on $paths, or on any path when $paths is null) are resolved, their note saying
//   which run fixed them
// params: $agent_id, $template, $before (datetime: decisions made before the passing one),
//   $paths (list of root-relative paths, or null), $note, $at (datetime)
// returns: closed (how many escalations were resolved)
// note: seeks the (agent_id, status) index of Escalation
// mode: write
MATCH (e:Escalation)
WHERE e.agent_id = $agent_id AND e.status = "open"
MATCH (e)-[:FOR]->(d:Decision)
WHERE d.template = $template AND d.at < $before AND ($paths IS NULL OR d.path IN $paths)
SET e.status = "resolved", e.resolved_at = $at, e.note = $note
RETURN count(e) AS closed
