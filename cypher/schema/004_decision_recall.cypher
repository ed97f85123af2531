// purpose: indexes the decision loop and recall filter decisions by: the primary observation's
//   path and path pattern, the decision's status (waiting, investigating …) and its wait time.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE INDEX decision_agent_path IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.path);
CREATE INDEX decision_agent_path_pattern IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.path_pattern);
CREATE INDEX decision_agent_status_wait IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.status, n.wait_until);
CREATE INDEX decision_agent_pattern_key IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.pattern_key);
CREATE INDEX execution_agent_decision IF NOT EXISTS FOR (n:Execution) ON (n.agent_id, n.decision_id);
