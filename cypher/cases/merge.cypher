// purpose: fold a near-duplicate case into the one kept: the kept case takes the newer
//   solution and error, adds the duplicate's credit and counts the merge; the duplicate is
//   marked merged and MERGED_INTO the kept one
// params: $agent_id, $keep_id, $duplicate_id
// returns: id of the kept case (no row when either is missing)
// mode: write
MATCH (k:Case {id: $keep_id})
WHERE k.agent_id = $agent_id
MATCH (d:Case {id: $duplicate_id})
WHERE d.agent_id = $agent_id AND d.status = "active" AND d.id <> k.id
SET k.helpful = coalesce(k.helpful, 0) + coalesce(d.helpful, 0),
    k.harmful = coalesce(k.harmful, 0) + coalesce(d.harmful, 0),
    k.uses = coalesce(k.uses, 0) + coalesce(d.uses, 0),
    k.merged = coalesce(k.merged, 0) + 1,
    d.status = "merged"
MERGE (d)-[:MERGED_INTO]->(k)
RETURN k.id AS id
