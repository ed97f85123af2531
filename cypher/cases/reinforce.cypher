// purpose: a new verified attempt repeats a kept case: the case takes the newer attempt whole
//   (its task, solution, and the failure that taught it), and counts the merge, instead of a
//   duplicate being written; a newer attempt that passed with no failure leaves a kept case
//   that has one as it is (its failure and fix are the lesson), so a case never shows one
//   task's words with another's code
// params: $agent_id, $id, $task, $worked, $failed_attempt, $error
// returns: id of the case
// mode: write
MATCH (c:Case {id: $id})
WHERE c.agent_id = $agent_id
WITH c, ($error = "" AND coalesce(c.error, "") <> "") AS keep_lesson
SET c.task = CASE WHEN keep_lesson THEN c.task ELSE $task END,
    c.worked = CASE WHEN keep_lesson THEN c.worked ELSE $worked END,
    c.failed_attempt = CASE WHEN keep_lesson THEN c.failed_attempt ELSE $failed_attempt END,
    c.error = CASE WHEN keep_lesson THEN c.error ELSE $error END,
    c.merged = coalesce(c.merged, 0) + 1
RETURN c.id AS id
