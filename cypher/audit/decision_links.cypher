// purpose: what one decision is linked to, by relationship type: its explanation at a glance
// params: $agent_id, $decision_id
// returns: type, count; one row per outgoing relationship type
// mode: read
MATCH (d:Decision {id: $decision_id})-[r]->()
WHERE d.agent_id = $agent_id
RETURN type(r) AS type, count(r) AS count
ORDER BY type
