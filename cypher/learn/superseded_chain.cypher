// purpose: the decisions a decision re-decided (SUPERSEDES, followed back through earlier
//   re-decisions), not yet learned from, so they take the outcome the chain came to
// params: $agent_id, $decision_id
// returns: id, pattern_key, confidence (one row per superseded decision)
// mode: read
MATCH (d:Decision {id: $decision_id})-[:SUPERSEDES*1..20]->(old:Decision)
WHERE d.agent_id = $agent_id AND old.learned_at IS NULL
RETURN DISTINCT old.id AS id, old.pattern_key AS pattern_key, old.confidence AS confidence
