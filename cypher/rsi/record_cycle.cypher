// purpose: one RSI cycle's record (seed 003 I4, I5), PRODUCED each desire it created
// params: $agent_id, $cycle (map of RSICycle properties), $desire_ids
// returns: id of the cycle
CREATE (c:RSICycle)
SET c = $cycle
WITH c
CALL (c) {
  UNWIND $desire_ids AS did
  MATCH (d:Desire {id: did})
  WHERE d.agent_id = $agent_id
  CREATE (c)-[:PRODUCED]->(d)
}
RETURN c.id AS id
