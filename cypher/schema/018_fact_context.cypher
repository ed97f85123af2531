// purpose: a fact is recalled in its context: the facts remembered just before it from the same
//   source in the same session (learn/add_fact writes f.context and FOLLOWS). In a
//   conversation an answer ("Yes, last May, it was amazing") carries few of the question's
//   words; the turns before it carry them. The index fact_thread finds those predecessors;
//   recall_words indexes f.text_in_context (the context, then the fact's own text), so
//   words find a fact through its context; a fact without one holds its own text there, so
//   every fact is scored on the same fields. Existing facts get text_in_context = content.
//   Measured on conversations (bench.recall_quality --conversation). The index is dropped and
//   made again and the data statement matches only facts still without the property, so a
//   migration cut half way is run again.
// params: none
// returns: nothing
CREATE INDEX fact_thread IF NOT EXISTS FOR (n:Fact) ON (n.agent_id, n.session_id, n.source, n.at);
MATCH (f:Fact) WHERE f.text_in_context IS NULL AND f.content IS NOT NULL
  SET f.text_in_context = f.content;
DROP INDEX recall_words IF EXISTS;
CREATE FULLTEXT INDEX recall_words IF NOT EXISTS
  FOR (n:Decision|Lesson|Fact|Procedure|Episode|Heuristic|Censor)
  ON EACH [n.agent_id, n.reasoning, n.reason, n.adjustment, n.content, n.name, n.domain,
           n.core_patterns_text, n.summary, n.lessons_text, n.trigger_pattern, n.text_in_context]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
