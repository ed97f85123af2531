// purpose: Claude Code turns (Turn nodes): a unique id, and the lookups the hooks make: the
//   turns of a session (agent_id, session_id: its open turn, all its turns) and by time
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT turn_id IF NOT EXISTS FOR (n:Turn) REQUIRE n.id IS UNIQUE;
CREATE INDEX turn_agent_at IF NOT EXISTS FOR (n:Turn) ON (n.agent_id, n.at);
CREATE INDEX turn_agent_session IF NOT EXISTS FOR (n:Turn) ON (n.agent_id, n.session_id);
