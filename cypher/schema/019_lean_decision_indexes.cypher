// purpose: fewer indexes to keep current on every Decision write (issue 28, "as fast as it was").
//   decision_text (Decision.reasoning, Lucene) was asked only by recall/investigate, which now
//   asks recall_words for this agent's decisions instead (it holds the same reasoning, and
//   agent_id); every decision fed both to Lucene in the background: about 2 ms of the server's
//   CPU per decision on bench.loop (its IndexUpdate threads, loaded machine). Three range
//   indexes are a prefix of another one that 005 made: (agent_id, path) of (agent_id, path, at),
//   (agent_id, path_pattern) of (agent_id, path_pattern, at), (agent_id, category,
//   observation_type) of (agent_id, category, observation_type, at); a query that filters on
//   the prefix and has "d.at IS NOT NULL" uses the longer one (test_cypher_files EXPLAINs it).
//   Dropping is idempotent (IF EXISTS), so a migration cut half way is run again.
// params: none
// returns: nothing
DROP INDEX decision_text IF EXISTS;
DROP INDEX decision_agent_path IF EXISTS;
DROP INDEX decision_agent_path_pattern IF EXISTS;
DROP INDEX decision_agent_category_type IF EXISTS;
