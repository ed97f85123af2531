// purpose: test fixture: DISTILLED_FROM relationships from heuristics to trajectories
// params: $agent_id, $rows (maps {id, at, heuristic_id, trajectory_id}; id and at unused)
// returns: id per relationship written (the heuristic's id)
UNWIND $rows AS row
MATCH (h:Heuristic {id: row.heuristic_id}), (t:Trajectory {id: row.trajectory_id})
MERGE (h)-[:DISTILLED_FROM]->(t)
RETURN h.id AS id
