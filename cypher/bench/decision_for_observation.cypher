// purpose: when the decision that considered one observation was made (bench.latency)
// params: $agent_id, $observation_id
// returns: at (of the decision; no row while none has considered it)
// mode: read
MATCH (o:Observation {id: $observation_id})<-[:CONSIDERED]-(d:Decision)
WHERE o.agent_id = $agent_id
RETURN d.at AS at
LIMIT 1
