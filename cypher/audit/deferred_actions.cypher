// purpose: the actions waiting behind the action budget, for `nous status`: decisions to act
//   that the budget deferred (the hour spent, or as many running as may), and when the first is
//   tried again
// params: $agent_id
// returns: one row: deferred (count), next_try (datetime or null)
// note: seeks the (agent_id, status, wait_until) index
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.status = "waiting" AND d.wait_until IS NOT NULL
  AND d.outcome STARTS WITH "deferred: "
RETURN count(d) AS deferred, min(d.wait_until) AS next_try
