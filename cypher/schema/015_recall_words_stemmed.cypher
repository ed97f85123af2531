// purpose: hybrid recall's two word indexes analyzed in English (Lucene's EnglishAnalyzer:
//   possessives dropped, stop words dropped, Porter stemming), so "painted" finds "painting"
//   and "researching" finds "research". Measured on conversations (bench.recall_quality
//   --conversation): words alone and fused both rank evidence higher than with the standard
//   analyzer. A question is analyzed by the same analyzer (Lucene does it), and the agent id
//   field too, so +agent_id:"…" still matches one agent (recall/hybrid filters by agent_id
//   again). Each index is dropped and made again, so a migration cut half way is run again.
// params: none
// returns: nothing
DROP INDEX recall_words IF EXISTS;
CREATE FULLTEXT INDEX recall_words IF NOT EXISTS
  FOR (n:Decision|Lesson|Fact|Procedure|Episode|Heuristic|Censor)
  ON EACH [n.agent_id, n.reasoning, n.reason, n.adjustment, n.content, n.name, n.domain,
           n.core_patterns_text, n.summary, n.lessons_text, n.trigger_pattern]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
DROP INDEX turn_words IF EXISTS;
CREATE FULLTEXT INDEX turn_words IF NOT EXISTS FOR (n:Turn) ON EACH [n.agent_id, n.prompt, n.response]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
