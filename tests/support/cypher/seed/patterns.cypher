// purpose: test fixture: Pattern statistics, as learning keeps them
// params: $agent_id, $rows (maps {id, at, key, total, successes, avg_confidence})
// returns: id per pattern
UNWIND $rows AS row
MERGE (p:Pattern {agent_id: $agent_id, key: row.key})
SET p += row
RETURN p.id AS id
