// purpose: test check: the agent's decisions as stored before migration 021 (no Consequential)
// params: $agent_id
// returns: removed (decisions unlabelled)
MATCH (d:Decision:Consequential {agent_id: $agent_id})
REMOVE d:Consequential
RETURN count(d) AS removed
