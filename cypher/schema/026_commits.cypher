// purpose: git history as memory (issue 58): Commit nodes (sha, subject, body, author's name,
//   authored_at, files_text: the paths it touched, one a line) linked TOUCHED->File, one per
//   sha per agent; a unique id; the lookups of the history's reader (agent_id, sha), of the
//   vector job (agent_id, at: when the commit was recorded) and of recall by time
//   (agent_id, authored_at); commit_words, a full-text index (English, like recall_words) over
//   the message and the paths, holding agent_id so a word search asks for one agent's hits;
//   one CommitLog node per agent keeps the sha last read (head).
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT commit_id IF NOT EXISTS FOR (n:Commit) REQUIRE n.id IS UNIQUE;
CREATE INDEX commit_agent_sha IF NOT EXISTS FOR (n:Commit) ON (n.agent_id, n.sha);
CREATE INDEX commit_agent_at IF NOT EXISTS FOR (n:Commit) ON (n.agent_id, n.at);
CREATE INDEX commit_agent_authored_at IF NOT EXISTS FOR (n:Commit) ON (n.agent_id, n.authored_at);
CREATE CONSTRAINT commit_log_agent IF NOT EXISTS FOR (n:CommitLog) REQUIRE n.agent_id IS UNIQUE;
CREATE FULLTEXT INDEX commit_words IF NOT EXISTS
  FOR (n:Commit) ON EACH [n.agent_id, n.subject, n.body, n.files_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
