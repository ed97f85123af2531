// purpose: a new fact, SUPPORTED_BY the episode it came from (when that episode exists), in its
//   context: with $session_id and $source, the fact this agent remembered last from the same
//   source in the same session is its predecessor (f FOLLOWS it; f.context holds its text, at
//   most $context_chars). f.text_in_context (indexed by recall_words, embedded by the vector
//   job) is the predecessor's text, a line break, then the fact's own; without a predecessor,
//   the fact's own text. Facts of other sessions, sources or agents never lend context.
// params: $agent_id, $fact (map of Fact properties; one a client told `nous mcp`
//   about also carries source: where it came from), $episode_id (or null), $session_id and
//   $source (or null: no context), $context_chars
// returns: id of the fact
OPTIONAL CALL () {
  WITH 1 AS one WHERE $session_id IS NOT NULL AND $source IS NOT NULL
  MATCH (p:Fact)
  USING INDEX SEEK p:Fact(agent_id, session_id, source, at)
  WHERE p.agent_id = $agent_id AND p.session_id = $session_id AND p.source = $source
    AND p.at IS NOT NULL
  WITH p ORDER BY p.agent_id DESC, p.session_id DESC, p.source DESC, p.at DESC LIMIT 1
  RETURN p
}
CREATE (f:Fact)
SET f = $fact
SET f.session_id = $session_id,
    f.context = CASE WHEN p IS NULL THEN null ELSE left(p.content, $context_chars) END,
    f.text_in_context = CASE WHEN p IS NULL THEN f.content
                             ELSE left(p.content, $context_chars) + "\n" + f.content END
WITH f, p
CALL (f, p) {
  WITH f, p WHERE p IS NOT NULL
  MERGE (f)-[:FOLLOWS]->(p)
}
WITH f
CALL (f) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  MERGE (f)-[:SUPPORTED_BY]->(e)
}
RETURN f.id AS id
