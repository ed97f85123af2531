// purpose: CodeNote nodes (issue 25): looked up by id; an agent's active notes about a name (the
//   recall before a prompt), by status (the pruner, random draws), by key (a repeat), by the
//   session shown them (credit when the turn ends) and by time (the vector job)
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT code_note_id IF NOT EXISTS FOR (n:CodeNote) REQUIRE n.id IS UNIQUE;
CREATE INDEX code_note_agent_name IF NOT EXISTS FOR (n:CodeNote) ON (n.agent_id, n.name);
CREATE INDEX code_note_agent_status IF NOT EXISTS FOR (n:CodeNote) ON (n.agent_id, n.status);
CREATE INDEX code_note_agent_key IF NOT EXISTS FOR (n:CodeNote) ON (n.agent_id, n.key);
CREATE INDEX code_note_agent_shown_session IF NOT EXISTS FOR (n:CodeNote) ON (n.agent_id, n.shown_session);
CREATE INDEX code_note_agent_at IF NOT EXISTS FOR (n:CodeNote) ON (n.agent_id, n.at);
