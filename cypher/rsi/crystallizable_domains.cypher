// purpose: the domains with at least $min_count successful trajectories no heuristic was
//   distilled from yet (crystallization's threshold, seed 003 C3), one domain or all
// params: $agent_id, $domain (a domain, or null for every domain), $min_count
// returns: domain, undistilled (count), one row per domain over the threshold, by domain
// mode: read
MATCH (t:Trajectory)
USING INDEX t:Trajectory(agent_id, domain)
WHERE t.agent_id = $agent_id AND t.domain IS NOT NULL
  AND ($domain IS NULL OR t.domain = $domain)
  AND t.success = true
  AND NOT EXISTS { (t)<-[:DISTILLED_FROM]-(:Heuristic) }
WITH t.domain AS domain, count(*) AS undistilled
WHERE undistilled >= $min_count
RETURN domain, undistilled
ORDER BY domain
