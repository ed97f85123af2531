// purpose: one heuristic with the trajectories it was DISTILLED_FROM (the practice it came
//   from) and the trials it was TRIED_IN (the evidence that made it active or rejected)
// params: $agent_id, $heuristic_id
// returns: heuristic (map of its properties), trajectories (list of maps {id, at, domain,
//   problem, approach, success, partial_score, tests_passed, tests_total}), trials (list of
//   HeuristicTrial property maps, oldest first); no row when there is no such heuristic
// mode: read
MATCH (h:Heuristic {id: $heuristic_id})
WHERE h.agent_id = $agent_id
RETURN properties(h) AS heuristic,
       COLLECT {
         MATCH (h)-[:DISTILLED_FROM]->(t:Trajectory)
         RETURN t {.id, .at, .domain, .problem, .approach, .success, .partial_score,
                   .tests_passed, .tests_total}
         ORDER BY t.at
       } AS trajectories,
       COLLECT {
         MATCH (h)-[:TRIED_IN]->(trial:HeuristicTrial)
         RETURN properties(trial) ORDER BY trial.at
       } AS trials
