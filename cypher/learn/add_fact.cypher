// purpose: a new fact, SUPPORTED_BY the episode it came from (when that episode exists), in its
//   context: with $session_id and $source, the last $context_facts facts this agent remembered
//   from the same source in the same session are its context (oldest first, one a line, each
//   at most $context_chars; f FOLLOWS the newest of them). f.text_in_context (indexed by
//   recall_words) is the context, a line break, then the fact's own text; without a context,
//   the fact's own text. Facts of other sessions, sources or agents never lend context.
// params: $agent_id, $fact (map of Fact properties; one a client told `nous mcp`
//   about also carries source: where it came from), $episode_id (or null), $session_id and
//   $source (or null: no context), $context_facts, $context_chars
// returns: id of the fact
CALL () {
  WITH 1 AS one WHERE $session_id IS NOT NULL AND $source IS NOT NULL
  MATCH (p:Fact)
  USING INDEX SEEK p:Fact(agent_id, session_id, source, at)
  WHERE p.agent_id = $agent_id AND p.session_id = $session_id AND p.source = $source
    AND p.at IS NOT NULL
  WITH p ORDER BY p.agent_id DESC, p.session_id DESC, p.source DESC, p.at DESC
  LIMIT $context_facts
  RETURN collect(p) AS before
}
WITH before, reverse([p IN before | left(p.content, $context_chars)]) AS said
WITH before, CASE WHEN size(said) = 0 THEN null
                  ELSE reduce(text = head(said), line IN tail(said) | text + "\n" + line) END AS context
CREATE (f:Fact)
SET f = $fact
SET f.session_id = $session_id,
    f.context = context,
    f.text_in_context = CASE WHEN context IS NULL THEN f.content ELSE context + "\n" + f.content END
WITH f, before
CALL (f, before) {
  WITH f, before WHERE size(before) > 0
  WITH f, head(before) AS newest
  MERGE (f)-[:FOLLOWS]->(newest)
}
WITH f
CALL (f) {
  MATCH (e:Episode {id: $episode_id})
  WHERE e.agent_id = $agent_id
  MERGE (f)-[:SUPPORTED_BY]->(e)
}
RETURN f.id AS id
