// purpose: test clean-up: an agent's ChunkProbe nodes deleted
// params: $agent_id
// returns: nothing
MATCH (n:ChunkProbe {agent_id: $agent_id})
DELETE n
