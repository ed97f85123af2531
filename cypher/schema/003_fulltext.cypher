// purpose: full-text indexes for text recall: facts, procedures, episodes, lessons, heuristics,
//   decisions' reasoning and escalations. Full-text indexes hold strings only, so list-valued
//   properties are also kept as a joined "_text" string (core_patterns_text, lessons_text).
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.content];
CREATE FULLTEXT INDEX procedure_text IF NOT EXISTS FOR (n:Procedure) ON EACH [n.name, n.domain, n.core_patterns_text];
CREATE FULLTEXT INDEX episode_text IF NOT EXISTS FOR (n:Episode) ON EACH [n.summary, n.lessons_text];
CREATE FULLTEXT INDEX lesson_text IF NOT EXISTS FOR (n:Lesson) ON EACH [n.reason, n.type];
CREATE FULLTEXT INDEX heuristic_text IF NOT EXISTS FOR (n:Heuristic) ON EACH [n.content];
CREATE FULLTEXT INDEX decision_text IF NOT EXISTS FOR (n:Decision) ON EACH [n.reasoning];
CREATE FULLTEXT INDEX censor_text IF NOT EXISTS FOR (n:Censor) ON EACH [n.trigger_pattern, n.reason];
