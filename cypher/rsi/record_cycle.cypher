// purpose: one RSI cycle's record (seed 003 I4, I5), PRODUCED each desire it created; merged
//   by id, because crystallization at the cycle's end links its heuristics to the cycle first
// params: $agent_id, $cycle (map of RSICycle properties), $desire_ids
// returns: id of the cycle
MERGE (c:RSICycle {id: $cycle.id})
SET c += $cycle
WITH c
CALL (c) {
  UNWIND $desire_ids AS did
  MATCH (d:Desire {id: did})
  WHERE d.agent_id = $agent_id
  CREATE (c)-[:PRODUCED]->(d)
}
RETURN c.id AS id
