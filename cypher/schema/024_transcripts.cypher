// purpose: a session's transcript as read by the hooks (issue 58): Utterance nodes (what the
//   user and the assistant said: speaker, text, session_id, line, time; IN_TURN a Turn),
//   looked up by id (a line read twice is kept once) and by session; one Transcript node per
//   session holding where the last read stopped (offset, line, skipped, path)
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT utterance_id IF NOT EXISTS FOR (n:Utterance) REQUIRE n.id IS UNIQUE;
CREATE INDEX utterance_agent_session IF NOT EXISTS FOR (n:Utterance) ON (n.agent_id, n.session_id);
CREATE INDEX utterance_agent_at IF NOT EXISTS FOR (n:Utterance) ON (n.agent_id, n.at);
CREATE CONSTRAINT transcript_id IF NOT EXISTS FOR (n:Transcript) REQUIRE n.id IS UNIQUE;
CREATE INDEX transcript_agent_session IF NOT EXISTS FOR (n:Transcript) ON (n.agent_id, n.session_id);
