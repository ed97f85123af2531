// purpose: how many observations the memory holds for an agent, and how many await a decision
// params: $agent_id
// returns: total, unprocessed (one row)
// mode: read
// note: "o.at IS NOT NULL" is always true; it lets the planner use the (agent_id, at) index,
//   which a composite range index needs a predicate on every property for.
MATCH (o:Observation)
WHERE o.agent_id = $agent_id AND o.at IS NOT NULL
RETURN count(o) AS total, count(CASE WHEN o.processed = false THEN 1 END) AS unprocessed
