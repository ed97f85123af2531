// purpose: the successful trajectories of one domain that no heuristic was distilled from
//   yet, oldest first (crystallization samples 4 oldest, 3 middle, 3 newest of them)
// params: $agent_id, $domain, $limit
// returns: trajectory (map of the Trajectory's properties), one row each, oldest first
// mode: read
MATCH (t:Trajectory)
USING INDEX t:Trajectory(agent_id, domain)
WHERE t.agent_id = $agent_id AND t.domain = $domain AND t.success = true
  AND NOT EXISTS { (t)<-[:DISTILLED_FROM]-(:Heuristic) }
RETURN properties(t) AS trajectory
ORDER BY t.at, t.id
LIMIT $limit
