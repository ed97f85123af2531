// purpose: test fixture: Trajectory nodes, each DISTILLED_FROM by the heuristic row.heuristic_id
//   names (as RSI's crystallisation links them)
// params: $agent_id, $rows (maps {id, at, heuristic_id, domain, problem, approach, success,
//   partial_score, tests_passed, tests_total})
// returns: id per trajectory
UNWIND $rows AS row
MATCH (h:Heuristic {id: row.heuristic_id})
CREATE (t:Trajectory)
SET t = row, t.agent_id = $agent_id
REMOVE t.heuristic_id
CREATE (h)-[:DISTILLED_FROM]->(t)
RETURN t.id AS id
