// purpose: credit the cases one attempt was shown: each use counts, helpful when the attempt
//   passed, harmful when it failed
// params: $agent_id, $ids (case ids), $helpful (boolean), $now (datetime)
// returns: credited (how many cases)
// mode: write
UNWIND $ids AS cid
MATCH (c:Case {id: cid})
WHERE c.agent_id = $agent_id
SET c.uses = coalesce(c.uses, 0) + 1,
    c.helpful = coalesce(c.helpful, 0) + CASE WHEN $helpful THEN 1 ELSE 0 END,
    c.harmful = coalesce(c.harmful, 0) + CASE WHEN $helpful THEN 0 ELSE 1 END,
    c.last_used = $now
RETURN count(c) AS credited
