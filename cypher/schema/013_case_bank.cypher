// purpose: Case nodes (issue 25): looked up by id; an agent's active cases of a domain listed
//   (recall's vectors, the pruner, random draws) and its cases by time (the vector job). The
//   full-text index holds agent_id so a word search asks Lucene for one agent's cases only;
//   it is not eventually consistent: a case written now is recalled by the very next attempt.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT case_id IF NOT EXISTS FOR (n:Case) REQUIRE n.id IS UNIQUE;
CREATE INDEX case_agent_status IF NOT EXISTS FOR (n:Case) ON (n.agent_id, n.status);
CREATE INDEX case_agent_at IF NOT EXISTS FOR (n:Case) ON (n.agent_id, n.at);
CREATE FULLTEXT INDEX case_words IF NOT EXISTS FOR (n:Case) ON EACH [n.agent_id, n.task, n.error, n.worked, n.domain];
