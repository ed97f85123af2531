// purpose: the executions of this agent that started and never ended (the daemon was killed
//   while they ran), each with its decision, oldest first
// params: $agent_id
// returns: execution (map of the Execution's properties), decision (map of the Decision's)
// mode: read
MATCH (d:Decision {agent_id: $agent_id})-[:EXECUTED_AS]->(x:Execution)
WHERE x.ended_at IS NULL
RETURN properties(x) AS execution, properties(d) AS decision
ORDER BY x.at
