// purpose: a heuristic was distilled from these cases: DISTILLED_FROM each (the agent's own only)
// params: $agent_id, $heuristic_id, $ids (case ids)
// returns: linked (how many cases)
// mode: write
MATCH (h:Heuristic {id: $heuristic_id})
WHERE h.agent_id = $agent_id
UNWIND $ids AS cid
MATCH (c:Case {id: cid})
WHERE c.agent_id = $agent_id
MERGE (h)-[:DISTILLED_FROM]->(c)
RETURN count(c) AS linked
