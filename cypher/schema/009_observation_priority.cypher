// purpose: serve the decision loop's queue order (critical, then urgent, then by time, over the
//   whole backlog of unprocessed observations) from one index: agent, processed, urgency, at
// params: none
// returns: nothing; idempotent (IF NOT EXISTS)
CREATE INDEX observation_agent_processed_urgency IF NOT EXISTS FOR (n:Observation) ON (n.agent_id, n.processed, n.urgency, n.at);
