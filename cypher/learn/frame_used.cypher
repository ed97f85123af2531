// purpose: count one use of a frame (seed 004: selection bumps usage_count) and when
// params: $agent_id, $name, $now (datetime)
// returns: usage_count (after the update); no row when the agent has no such frame
MATCH (f:Frame {agent_id: $agent_id, name: $name})
SET f.usage_count = coalesce(f.usage_count, 0) + 1, f.last_used = $now
RETURN f.usage_count AS usage_count
