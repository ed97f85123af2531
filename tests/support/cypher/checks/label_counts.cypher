// purpose: test check: how many nodes of each label an agent has (tests only)
// params: $agent_id
// returns: label, count, one row per label
// mode: read
MATCH (n)
WHERE n.agent_id = $agent_id
RETURN labels(n)[0] AS label, count(*) AS count
ORDER BY label
