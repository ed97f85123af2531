// purpose: censors learned from a Claude Code tool call are found by the call's key (the tool
//   and its whole input, normalised), by the censor gate at every PreToolUse and when the same
//   call fails again
// params: none
// returns: nothing; idempotent (IF NOT EXISTS)
CREATE INDEX censor_agent_call IF NOT EXISTS FOR (n:Censor) ON (n.agent_id, n.call_key);
