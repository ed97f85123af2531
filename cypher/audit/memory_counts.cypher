// purpose: what the memory holds: how many nodes of each label this agent has
// params: $agent_id
// returns: label, count; one row per label of the graph model, in the order of the model
// mode: read
// note: one index seek per label on (agent_id, at); every node is written with its "at".
CALL () {
  MATCH (n:Observation) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Observation" AS label, count(n) AS count
  UNION ALL
  MATCH (n:File) WHERE n.agent_id = $agent_id AND n.path IS NOT NULL
  RETURN "File" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Decision) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Decision" AS label, count(n) AS count
  UNION ALL
  MATCH (n:ReasoningStep) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "ReasoningStep" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Execution) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Execution" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Escalation) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Escalation" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Pattern) WHERE n.agent_id = $agent_id AND n.key IS NOT NULL
  RETURN "Pattern" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Lesson) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Lesson" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Censor) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Censor" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Goal) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Goal" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Episode) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Episode" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Event) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Event" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Desire) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Desire" AS label, count(n) AS count
  UNION ALL
  MATCH (n:Heuristic) WHERE n.agent_id = $agent_id AND n.at IS NOT NULL
  RETURN "Heuristic" AS label, count(n) AS count
}
RETURN label, count
