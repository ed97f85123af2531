// purpose: end every attempt of a decision that has not ended, with what stopped it (a run
//   restarted because files changed while it ran: its process group was killed)
// params: $agent_id, $decision_id, $result (map of Execution properties, with ended_at)
// returns: interrupted (how many executions were ended)
// mode: write
MATCH (d:Decision {id: $decision_id})-[:EXECUTED_AS]->(x:Execution)
WHERE d.agent_id = $agent_id AND x.ended_at IS NULL
SET x += $result
RETURN count(x) AS interrupted
