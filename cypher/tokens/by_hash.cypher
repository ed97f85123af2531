// purpose: the live (not revoked) token with this hash: every request to the team server asks
// mode: read
// params: $hash (sha256 hex of the presented token)
// returns: zero or one row (id, name, agent_id, at, revoked_at)
MATCH (t:ApiToken {hash: $hash})
WHERE t.revoked_at IS NULL
RETURN t.id AS id, t.name AS name, t.agent_id AS agent_id, t.at AS at, t.revoked_at AS revoked_at
