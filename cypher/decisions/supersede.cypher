// purpose: a later decision supersedes an earlier one on the same subject (issue 58): the
//   earlier's validity ends when the later took effect (invalid_at), and the later
//   SUPERSEDES it; the earlier must be this project's and visible to this agent
// params: $agent_id, $project, $new_id, $old_id
// returns: old_id when superseded (no row when either is missing)
MATCH (new:Fact {id: $new_id})
MATCH (old:Fact {id: $old_id})
WHERE new.kind = 'decision' AND old.kind = 'decision' AND old.project = $project
  AND (new.scope = 'project' OR new.agent_id = $agent_id)
  AND (old.scope = 'project' OR old.agent_id = $agent_id)
SET old.invalid_at = new.valid_from
MERGE (new)-[:SUPERSEDES]->(old)
RETURN old.id AS old_id
