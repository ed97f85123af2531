// purpose: the cases a Claude Code session was shown before its turn, found again when the turn
//   ends (each hook is its own process) to credit them by the turn's outcome
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE INDEX case_agent_shown_session IF NOT EXISTS FOR (n:Case) ON (n.agent_id, n.shown_session);
