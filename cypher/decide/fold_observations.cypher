// purpose: settle observations with a decision already written about their file: CONSIDERED
//   (stamped with when, so the lag from a change to its settling stays true), marked processed,
//   and the decision's count of changes folded into it raised (the loop's quiet path)
// params: $agent_id, $decision_id, $observation_ids, $at (datetime of the folding)
// returns: folded (how many observations were linked)
// mode: write
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
CALL (d) {
  UNWIND $observation_ids AS oid
  WITH DISTINCT d, oid
  MATCH (o:Observation {id: oid})
  WHERE o.agent_id = $agent_id AND o.processed = false
  SET o.processed = true
  CREATE (d)-[:CONSIDERED {at: $at}]->(o)
  RETURN count(o) AS folded
}
SET d.folded_changes = coalesce(d.folded_changes, 0) + folded
RETURN folded
