// purpose: the sha the history's reader saw last for this agent (the CommitLog's head), so the
//   next read asks git only for what is new since
// params: $agent_id
// returns: head (a sha), or no row before the first read
// mode: read
MATCH (g:CommitLog)
WHERE g.agent_id = $agent_id
RETURN g.head AS head
