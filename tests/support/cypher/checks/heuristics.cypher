// purpose: test check: every heuristic of the agent with its links (tests only)
// params: $agent_id
// returns: heuristic (properties), pruned_in (ids of the agent's RSICycles it is PRUNED_IN),
//   pruned_in_any (count of PRUNED_IN of any target), distilled (count), applied (count),
//   produced_by (ids of the RSICycles that PRODUCED it)
// mode: read
MATCH (h:Heuristic)
WHERE h.agent_id = $agent_id
RETURN properties(h) AS heuristic,
       [(h)-[:PRUNED_IN]->(c:RSICycle) WHERE c.agent_id = $agent_id | c.id] AS pruned_in,
       COUNT { (h)-[:PRUNED_IN]->() } AS pruned_in_any,
       COUNT { (h)-[:DISTILLED_FROM]->(:Trajectory) } AS distilled,
       COUNT { (:Decision)-[:APPLIED]->(h) } AS applied,
       [(c:RSICycle)-[:PRODUCED]->(h) | c.id] AS produced_by
ORDER BY h.at, h.id
