// purpose: full-text indexes that also hold agent_id, so hybrid recall's word search asks
//   Lucene for one agent's hits only (+agent_id:"…" in the query) instead of reading every
//   agent's best hits and dropping the others' (a small agent beside a big one). Eventually
//   consistent like 007's; those stay for the structural recall that uses them.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE FULLTEXT INDEX fact_words IF NOT EXISTS FOR (n:Fact) ON EACH [n.content, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX procedure_words IF NOT EXISTS FOR (n:Procedure) ON EACH [n.name, n.domain, n.core_patterns_text, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX episode_words IF NOT EXISTS FOR (n:Episode) ON EACH [n.summary, n.lessons_text, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX lesson_words IF NOT EXISTS FOR (n:Lesson) ON EACH [n.reason, n.type, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX heuristic_words IF NOT EXISTS FOR (n:Heuristic) ON EACH [n.content, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX decision_words IF NOT EXISTS FOR (n:Decision) ON EACH [n.reasoning, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
CREATE FULLTEXT INDEX censor_words IF NOT EXISTS FOR (n:Censor) ON EACH [n.trigger_pattern, n.reason, n.agent_id]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
