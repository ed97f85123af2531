// purpose: the decisions in force that this agent kept from one session, newest first (issue
//   58): where a reason given in a later message of the session (after the person asks why)
//   finds the rule it explains. Seeks the fact_thread index (agent_id, session_id, source).
// params: $agent_id, $project, $session_id, $limit
// returns: decision (map: id, text, subjects, files, valid_from, invalid_at, source,
//   session_id, sha, scope, agent_id, replaces: null), score (always 0.0)
// mode: read
MATCH (f:Fact)
WHERE f.agent_id = $agent_id AND f.session_id = $session_id AND f.source = 'session'
  AND f.at IS NOT NULL
  AND f.kind = 'decision' AND f.project = $project AND f.invalid_at IS NULL
RETURN {id: f.id, text: f.text, subjects: f.subjects, files: f.files,
        valid_from: toString(f.valid_from), invalid_at: null,
        source: f.source, session_id: f.session_id, sha: f.sha, scope: f.scope,
        agent_id: f.agent_id, replaces: null} AS decision, 0.0 AS score
ORDER BY f.valid_from DESC
LIMIT $limit
