// purpose: the latest practice attempts, newest first: in one domain (difficulty, T2) or in
//   all (problems seen recently, T5) when $domain is null
// params: $agent_id, $domain (or null), $limit
// returns: one row per trajectory: trajectory (node properties)
// mode: read
MATCH (t:Trajectory)
WHERE t.agent_id = $agent_id AND t.at IS NOT NULL AND ($domain IS NULL OR t.domain = $domain)
WITH t ORDER BY t.at DESC LIMIT $limit
RETURN properties(t) AS trajectory
