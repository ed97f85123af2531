// purpose: a person names the domain of a desire that waits for clarification: domain set,
//   status from needs_clarification to verified, so the next cycle can practise it
// params: $agent_id, $desire_id, $domain, $at (datetime)
// returns: id, status, domain, was (the status before); no row when there is no such desire
MATCH (s:Desire {id: $desire_id})
WHERE s.agent_id = $agent_id
WITH s, s.status AS was
SET s.domain = CASE WHEN was = "needs_clarification" THEN $domain ELSE s.domain END,
    s.status = CASE WHEN was = "needs_clarification" THEN "verified" ELSE s.status END,
    s.clarified_at = CASE WHEN was = "needs_clarification" THEN $at ELSE s.clarified_at END
RETURN s.id AS id, s.status AS status, s.domain AS domain, was
