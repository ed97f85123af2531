// purpose: test fixture: one node a row; a row whose divisor is 0 fails its whole chunk
// params: $agent_id, $rows (maps {divisor})
// returns: one row a node
UNWIND $rows AS row
CREATE (n:ChunkProbe {agent_id: $agent_id, value: 1 / row.divisor})
RETURN n.value AS value
