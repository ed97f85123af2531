// purpose: the latest desires' descriptions, for the direction variance of seed 003 M
// params: $agent_id, $limit
// returns: one row per desire: id, description
// mode: read
MATCH (d:Desire)
WHERE d.agent_id = $agent_id AND d.at IS NOT NULL
WITH d ORDER BY d.at DESC LIMIT $limit
RETURN d.id AS id, d.description AS description
