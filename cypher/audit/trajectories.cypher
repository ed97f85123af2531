// purpose: the latest practice attempts (trajectories): the problem, how it went, and the
//   heuristics distilled from each
// params: $agent_id, $limit
// returns: id, at, domain, problem, approach, success, partial_score, tests_passed,
//   tests_total, heuristics (ids of the heuristics DISTILLED_FROM it)
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (t:Trajectory)
WHERE t.agent_id = $agent_id AND t.at IS NOT NULL
WITH t ORDER BY t.at DESC LIMIT toInteger($limit)
RETURN t.id AS id, t.at AS at, t.domain AS domain, t.problem AS problem,
       t.approach AS approach, t.success AS success, t.partial_score AS partial_score,
       t.tests_passed AS tests_passed, t.tests_total AS tests_total,
       COLLECT { MATCH (h:Heuristic)-[:DISTILLED_FROM]->(t) RETURN h.id } AS heuristics
ORDER BY at DESC
