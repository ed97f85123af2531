// purpose: a decision's chain of supersession (issue 58, `nous why`): the decision, every
//   decision it superseded and every one that superseded it, newest first, as this agent
//   sees them (scope 'project', or its own)
// params: $agent_id, $decision_id
// returns: decision (map: id, text, subjects, files, valid_from, invalid_at, source,
//   session_id, sha, scope, agent_id, replaces: null); no row when the id is not a visible
//   decision
// mode: read
MATCH (d:Fact {id: $decision_id})
WHERE d.kind = 'decision' AND (d.scope = 'project' OR d.agent_id = $agent_id)
CALL (d) {
  MATCH (d)-[:SUPERSEDES*0..16]->(f:Fact)
  RETURN f
  UNION
  MATCH (f:Fact)-[:SUPERSEDES*1..16]->(d)
  RETURN f
}
WITH d, f WHERE f.project = d.project AND (f.scope = 'project' OR f.agent_id = $agent_id)
RETURN {id: f.id, text: f.text, subjects: f.subjects, files: f.files,
        valid_from: toString(f.valid_from), invalid_at: toString(f.invalid_at),
        source: f.source, session_id: f.session_id, sha: f.sha, scope: f.scope,
        agent_id: f.agent_id, replaces: null} AS decision
ORDER BY f.valid_from DESC
