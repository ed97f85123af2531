// purpose: the heuristics in one status (active: what the prompts carry, what
//   de-duplication and pruning weigh, what the strategies files list; candidate: what
//   waits for its trial), of one domain or all, oldest first
// params: $agent_id, $status (candidate, active, rejected or pruned), $domain (a domain, or
//   null for every domain)
// returns: heuristic (map of the Heuristic's properties), one row each, oldest first
// mode: read
MATCH (h:Heuristic)
USING INDEX h:Heuristic(agent_id, status)
WHERE h.agent_id = $agent_id AND h.status = $status
  AND ($domain IS NULL OR h.domain = $domain)
RETURN properties(h) AS heuristic
ORDER BY h.at, h.id
