// purpose: record that a chat turn starts deliberating (seed 004 DeliberationEngine.start): a
//   Decision with status "deliberating" and description "Plan: …", MATCHED its Pattern
//   (created with zero counts if absent) and IN_EPISODE the session's episode
// params: $agent_id, $decision (map of Decision properties), $pattern (map {id, key} or null),
//   $episode_id (or null)
// returns: id of the decision
CREATE (d:Decision)
SET d = $decision
WITH d
CALL (d) {
  WITH d WHERE $pattern IS NOT NULL
  MERGE (p:Pattern {agent_id: $agent_id, key: $pattern.key})
    ON CREATE SET p.id = $pattern.id, p.at = d.at, p.total = 0, p.successes = 0,
                  p.avg_confidence = 0.0
  MERGE (d)-[:MATCHED]->(p)
}
CALL (d) {
  WITH d WHERE $episode_id IS NOT NULL
  MATCH (e:Episode {id: $episode_id})
  MERGE (d)-[:IN_EPISODE]->(e)
}
RETURN d.id AS id
