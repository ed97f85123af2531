// purpose: test check: how many ChunkProbe nodes an agent has
// params: $agent_id
// returns: one row: count
MATCH (n:ChunkProbe {agent_id: $agent_id})
RETURN count(n) AS count
