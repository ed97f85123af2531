// purpose: test fixture: a Fact whose time has a named zone and nanoseconds, as a Cypher
//   writer using datetime() with a zone would store it
// params: $agent_id, $id, $content
// returns: id
CREATE (f:Fact {id: $id, agent_id: $agent_id, content: $content,
                at: datetime("2026-01-01T12:00:00.123456789+01:00[Europe/Paris]")})
RETURN f.id AS id
