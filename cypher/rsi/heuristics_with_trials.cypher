// purpose: every heuristic of the agent, oldest first, with its paired trials (the evidence
//   that made it active or rejected): what the transfer bench reports as learned
// params: $agent_id
// returns: heuristic (map of the Heuristic's properties), trials (list of HeuristicTrial
//   property maps, oldest first)
// mode: read
MATCH (h:Heuristic)
USING INDEX h:Heuristic(agent_id, at)
WHERE h.agent_id = $agent_id AND h.at IS NOT NULL
RETURN properties(h) AS heuristic,
       COLLECT {
         MATCH (h)-[:TRIED_IN]->(t:HeuristicTrial)
         RETURN properties(t) ORDER BY t.at
       } AS trials
ORDER BY h.at, h.id
