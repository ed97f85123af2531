// purpose: the active cases of one domain that hold a lesson (a failed attempt and its error) and
//   that no heuristic was distilled from yet, oldest first: what crystallization groups by the
//   lesson they share
// params: $agent_id, $domain, $limit
// returns: case (the node's properties, without its embedding)
// mode: read
MATCH (c:Case)
USING INDEX c:Case(agent_id, status)
WHERE c.agent_id = $agent_id AND c.status = "active" AND c.domain = $domain
  AND coalesce(c.error, "") <> ""
  AND NOT EXISTS { (c)<-[:DISTILLED_FROM]-(:Heuristic) }
RETURN c {.*, embedding: null} AS case
ORDER BY c.at, c.id
LIMIT $limit
