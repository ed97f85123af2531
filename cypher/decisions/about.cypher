// purpose: the project's decisions still in force that a new decision might supersede
//   (issue 58): found by the decision_words index on the new decision's subjects, files and
//   words, in one project, visible to this agent (scope 'project', or its own)
// params: $agent_id, $project, $query (Lucene query from graph.store.lucene.scoped_query),
//   $limit
// returns: decision (map: id, text, subjects, files, valid_from, invalid_at, source,
//   session_id, sha, scope, agent_id), score
// mode: read
CALL db.index.fulltext.queryNodes("decision_words", $query, {limit: $limit}) YIELD node AS f, score
WHERE f.kind = 'decision' AND f.project = $project AND f.invalid_at IS NULL
  AND (f.scope = 'project' OR f.agent_id = $agent_id)
RETURN {id: f.id, text: f.text, subjects: f.subjects, files: f.files,
        valid_from: toString(f.valid_from), invalid_at: toString(f.invalid_at),
        source: f.source, session_id: f.session_id, sha: f.sha, scope: f.scope,
        agent_id: f.agent_id, replaces: null} AS decision, score
ORDER BY score DESC
