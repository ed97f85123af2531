// purpose: a person lifts a censor: status lifted (only active censors block or warn), with
//   lifted_at and their note; the censor stays in the graph
// params: $agent_id, $censor_id, $note, $at (datetime)
// returns: id, status, severity, trigger_pattern; no row when there is no such censor
MATCH (c:Censor {id: $censor_id})
WHERE c.agent_id = $agent_id
SET c.status = "lifted", c.lifted_at = $at, c.lift_note = $note
RETURN c.id AS id, c.status AS status, c.severity AS severity,
       c.trigger_pattern AS trigger_pattern
