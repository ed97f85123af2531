// purpose: the latest decision about one file (by its path relative to the watched root)
// params: $agent_id, $path
// returns: id, at, type; at most one row
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.path = $path AND d.at IS NOT NULL
RETURN d.id AS id, d.at AS at, d.type AS type
ORDER BY d.at DESC
LIMIT 1
