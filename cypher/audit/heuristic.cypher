// purpose: one heuristic with the trajectories it was DISTILLED_FROM (the practice it came
//   from)
// params: $agent_id, $heuristic_id
// returns: heuristic (map of its properties), trajectories (list of maps {id, at, domain,
//   problem, approach, success, partial_score, tests_passed, tests_total}); no row when there
//   is no such heuristic
// mode: read
MATCH (h:Heuristic {id: $heuristic_id})
WHERE h.agent_id = $agent_id
RETURN properties(h) AS heuristic,
       COLLECT {
         MATCH (h)-[:DISTILLED_FROM]->(t:Trajectory)
         RETURN t {.id, .at, .domain, .problem, .approach, .success, .partial_score,
                   .tests_passed, .tests_total}
         ORDER BY t.at
       } AS trajectories
