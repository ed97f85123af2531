// purpose: when each action of this agent started since $since: the first execution of each
//   decision executed in that time (what the action budget counts over its hour)
// params: $agent_id, $since (datetime)
// returns: started (datetime), one row per action, oldest first
// mode: read
MATCH (x:Execution {agent_id: $agent_id})
WHERE x.at > $since
WITH x.decision_id AS decision, min(x.at) AS started
RETURN started
ORDER BY started
