// purpose: make the full-text indexes eventually consistent. Updated at commit, each one cost
//   about 4 ms on every write of its label (measured on a Decision write: 7.3 ms with
//   decision_text, 3.3 ms without), on the decision loop's hot path. Now Lucene is updated in
//   the background: text recall may miss what was written a moment ago, nothing else changes.
//   The indexes keep their names, so the queries that use them are unchanged.
// params: none
// returns: nothing; each index is dropped and created again (IF EXISTS / IF NOT EXISTS), so an
//   interrupted run is simply run again
DROP INDEX fact_text IF EXISTS;
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.content]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
DROP INDEX procedure_text IF EXISTS;
CREATE FULLTEXT INDEX procedure_text IF NOT EXISTS FOR (n:Procedure) ON EACH [n.name, n.domain, n.core_patterns_text]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
DROP INDEX episode_text IF EXISTS;
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.summary, n.lessons_text]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
DROP INDEX lesson_text IF EXISTS;
CREATE FULLTEXT INDEX lesson_text IF NOT EXISTS FOR (n:Lesson) ON EACH [n.reason, n.type]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
DROP INDEX heuristic_text IF EXISTS;
CREATE FULLTEXT INDEX heuristic_text IF NOT EXISTS FOR (n:Heuristic) ON EACH [n.content]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
DROP INDEX decision_text IF EXISTS;
CREATE FULLTEXT INDEX decision_text IF NOT EXISTS FOR (n:Decision) ON EACH [n.reasoning]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
DROP INDEX censor_text IF EXISTS;
CREATE FULLTEXT INDEX censor_text IF NOT EXISTS FOR (n:Censor) ON EACH [n.trigger_pattern, n.reason]
  OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}};
