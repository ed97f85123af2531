// purpose: keep a new bearer token for the team server (only its hash), unless a token that is
//   not revoked already has the name
// params: $id, $name, $agent_id (the agent the token reads and writes as), $hash (sha256 hex of
//   the token), $at (datetime)
// returns: one row (id, name, agent_id, at, revoked_at) when created; no row when the name is taken
OPTIONAL MATCH (taken:ApiToken {name: $name})
WHERE taken.revoked_at IS NULL
WITH count(taken) AS live
WHERE live = 0
CREATE (t:ApiToken {id: $id, name: $name, agent_id: $agent_id, hash: $hash, at: $at})
RETURN t.id AS id, t.name AS name, t.agent_id AS agent_id, t.at AS at, t.revoked_at AS revoked_at
