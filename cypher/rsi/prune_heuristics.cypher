// purpose: retire heuristics: status pruned, pruned_at, prune_reason, PRUNED_IN the RSI cycle
//   or prune job run $run (created when it does not exist yet, e.g. the daily job's run);
//   never deleted. A heuristic already pruned is left as it is (pruning twice = once).
// params: $agent_id, $run (map of RSICycle properties: id, agent_id, at, kind), $now (datetime),
//   $rows (list of maps {id, reason})
// returns: id of each heuristic pruned now
MERGE (c:RSICycle {id: $run.id})
  ON CREATE SET c += $run
WITH c
UNWIND $rows AS row
MATCH (h:Heuristic {id: row.id})
WHERE h.agent_id = $agent_id AND h.status = "active"
SET h.status = "pruned", h.pruned_at = $now, h.prune_reason = row.reason
MERGE (h)-[:PRUNED_IN]->(c)
RETURN h.id AS id
