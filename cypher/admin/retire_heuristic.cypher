// purpose: a person retires a heuristic: status pruned, pruned_at and their reason; it stays
//   in the graph (never deleted) and no prompt carries it any more
// params: $agent_id, $heuristic_id, $note, $at (datetime)
// returns: id, status, domain; no row when there is no such heuristic
MATCH (h:Heuristic {id: $heuristic_id})
WHERE h.agent_id = $agent_id
SET h.status = "pruned", h.pruned_at = $at, h.prune_reason = $note
RETURN h.id AS id, h.status AS status, h.domain AS domain
