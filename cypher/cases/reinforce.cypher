// purpose: a new verified attempt repeats a kept case: the case takes the newer solution (and
//   the failure that taught it, when the new attempt had one) and counts the merge, instead of
//   a duplicate being written
// params: $agent_id, $id, $worked, $failed_attempt, $error
// returns: id of the case
// mode: write
MATCH (c:Case {id: $id})
WHERE c.agent_id = $agent_id
SET c.worked = $worked,
    c.failed_attempt = CASE WHEN $error = "" THEN c.failed_attempt ELSE $failed_attempt END,
    c.error = CASE WHEN $error = "" THEN c.error ELSE $error END,
    c.merged = coalesce(c.merged, 0) + 1
RETURN c.id AS id
