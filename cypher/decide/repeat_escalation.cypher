// purpose: an escalation already open for the same template on the same path, for the same
//   reason (a censor's block met again at the next change), takes the new decision as a repeat:
//   the decision is escalated and REPEATS it; the escalation counts repeats and when the last was.
//   Nothing when no such escalation is open (then a new one is recorded).
// params: $agent_id, $decision_id, $template, $path, $reason, $at (datetime), $escalated (the
//   status value)
// returns: id of the escalation repeated, repeats (its count now); no row when none is open
// note: seeks the (agent_id, status) index of Escalation
// mode: write
MATCH (e:Escalation)
WHERE e.agent_id = $agent_id AND e.status = "open" AND e.reason = $reason
MATCH (e)-[:FOR]->(first:Decision)
WHERE first.template = $template AND first.path = $path AND first.id <> $decision_id
WITH e ORDER BY e.at LIMIT 1
MATCH (d:Decision {id: $decision_id})
SET d.status = $escalated
SET e.repeats = coalesce(e.repeats, 0) + 1, e.repeated_at = $at
MERGE (d)-[:REPEATS]->(e)
RETURN e.id AS id, e.repeats AS repeats
