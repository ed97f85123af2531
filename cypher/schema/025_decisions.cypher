// purpose: a team's decisions as statements (issue 58): Fact nodes of kind 'decision' carry
//   text (the sentence as stated, with its reason), subjects and files (what it concerns),
//   project and scope ('project': every agent of the project sees it; 'agent': its own
//   agent only), valid_from, invalid_at (set when a later decision supersedes it), source
//   ('session' or 'commit') with session_id, speaker, sha; STATED_IN the Utterance or
//   Commit, CONCERNS the File nodes, SUPERSEDES the decision it replaced. decision_text
//   (the text, then its subjects and files as plain words: MAX_ATTEMPTS as "max attempts")
//   is what the decision_words full-text index searches, with the project as a field so a
//   query asks for one project's decisions; other facts have no decision_text and are not in
//   it. decision_project indexes a project's decisions by when they took effect.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE FULLTEXT INDEX decision_words IF NOT EXISTS FOR (n:Fact) ON EACH [n.project, n.decision_text]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
CREATE INDEX decision_project IF NOT EXISTS FOR (n:Fact) ON (n.project, n.valid_from);
