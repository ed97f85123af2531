// purpose: the decisions a prompt needs (issue 58): the project's decisions found by the
//   decision_words index (words of the prompt, its code names as words), each replaced by the
//   decision in force that superseded it (following SUPERSEDES back to one with no
//   invalid_at), visible to this agent (scope 'project', or its own); with the date of the
//   decision each one replaced, if any
// params: $agent_id, $project, $query (Lucene query from graph.store.lucene.scoped_query),
//   $limit
// returns: decision (map: id, text, subjects, files, valid_from, invalid_at, source,
//   session_id, sha, scope, agent_id, replaces: valid_from of the latest decision it
//   superseded, replaced: the texts of every decision it superseded),
//   score (the best score of the decisions that led to it)
// mode: read
CALL db.index.fulltext.queryNodes("decision_words", $query, {limit: $limit}) YIELD node AS hit, score
WHERE hit.kind = 'decision' AND hit.project = $project
  AND (hit.scope = 'project' OR hit.agent_id = $agent_id)
CALL (hit) {
  OPTIONAL MATCH (cur:Fact)-[:SUPERSEDES*1..8]->(hit)
  WHERE cur.invalid_at IS NULL AND (cur.scope = 'project' OR cur.agent_id = $agent_id)
  RETURN coalesce(cur, hit) AS f
  LIMIT 1
}
WITH f, max(score) AS score
WHERE f.invalid_at IS NULL
OPTIONAL MATCH (f)-[:SUPERSEDES*1..8]->(old:Fact)
WITH f, score, max(old.valid_from) AS replaces, collect(old.text) AS replaced
RETURN {id: f.id, text: f.text, subjects: f.subjects, files: f.files,
        valid_from: toString(f.valid_from), invalid_at: null, source: f.source,
        session_id: f.session_id, sha: f.sha, scope: f.scope, agent_id: f.agent_id,
        replaces: toString(replaces), replaced: replaced} AS decision, score
ORDER BY score DESC
LIMIT $limit
