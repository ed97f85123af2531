// purpose: desires in one status, oldest first (verified desires waiting to be practiced,
//   the clarification queue)
// params: $agent_id, $status, $limit
// returns: one row per desire: desire (node properties)
// mode: read
MATCH (d:Desire)
USING INDEX SEEK d:Desire(agent_id, status)
WHERE d.agent_id = $agent_id AND d.status = $status
WITH d ORDER BY d.at ASC LIMIT $limit
RETURN properties(d) AS desire
