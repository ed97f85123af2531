// purpose: how many observations the memory holds for an agent, and how many await a decision
// params: $agent_id
// returns: total, unprocessed (one row)
// mode: read
MATCH (o:Observation {agent_id: $agent_id})
RETURN count(o) AS total, count(CASE WHEN o.processed = false THEN 1 END) AS unprocessed
