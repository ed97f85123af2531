// purpose: revoke the live tokens named $ref, or the one whose id is $ref; the node stays (who
//   had access, and until when), only its hash stops matching any request
// params: $ref (a token's name or id), $at (datetime)
// returns: one row per token revoked (id, name, agent_id, at, revoked_at)
MATCH (t:ApiToken)
WHERE (t.name = $ref OR t.id = $ref) AND t.revoked_at IS NULL
SET t.revoked_at = $at
RETURN t.id AS id, t.name AS name, t.agent_id AS agent_id, t.at AS at, t.revoked_at AS revoked_at
