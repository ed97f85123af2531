// purpose: the executions of this agent that started and never ended (the daemon was killed
//   while they ran), each with its decision, oldest first
// params: $agent_id
// returns: execution (map of the Execution's properties), decision (map of the Decision's)
// mode: read
MATCH (x:Execution)
WHERE x.agent_id = $agent_id AND x.at IS NOT NULL AND x.ended_at IS NULL
MATCH (d:Decision)-[:EXECUTED_AS]->(x)
RETURN properties(x) AS execution, properties(d) AS decision
ORDER BY x.at
