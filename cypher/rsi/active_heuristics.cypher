// purpose: the active heuristics, of one domain or all, oldest first: what de-duplication
//   compares against, what pruning weighs, what the strategies files list
// params: $agent_id, $domain (a domain, or null for every domain)
// returns: heuristic (map of the Heuristic's properties), one row each, oldest first
// mode: read
MATCH (h:Heuristic)
USING INDEX h:Heuristic(agent_id, status)
WHERE h.agent_id = $agent_id AND h.status = "active"
  AND ($domain IS NULL OR h.domain = $domain)
RETURN properties(h) AS heuristic
ORDER BY h.at, h.id
