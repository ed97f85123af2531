// purpose: what RSI looks things up by: successful trajectories per domain (seed 003 N1, for
//   crystallization) and the latest trajectories per domain (difficulty, T2)
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE INDEX trajectory_agent_domain_success IF NOT EXISTS FOR (n:Trajectory) ON (n.agent_id, n.domain, n.success);
CREATE INDEX trajectory_agent_domain_at IF NOT EXISTS FOR (n:Trajectory) ON (n.agent_id, n.domain, n.at);
