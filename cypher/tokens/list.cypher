// purpose: every team-server token, of every agent (`nous tokens list`): live ones first, by name
// mode: read
// params: $limit
// returns: rows (id, name, agent_id, at, revoked_at); never the hash
MATCH (t:ApiToken)
RETURN t.id AS id, t.name AS name, t.agent_id AS agent_id, t.at AS at, t.revoked_at AS revoked_at
ORDER BY t.revoked_at IS NULL DESC, t.name, t.at
LIMIT $limit
