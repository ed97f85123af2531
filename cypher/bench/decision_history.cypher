// purpose: the recall benchmark's synthetic history, one batch of decisions: each Decision
//   CONSIDERED its Observation, HAS_STEP{order} its ReasoningStep nodes, MATCHED its Pattern
//   (created beforehand by bench/standing_memory), and the Lesson nodes LEARNED_FROM it; a
//   decision that did something (escalated, or executed: the history has no dry runs) is
//   Consequential, as record_decision and start_execution leave it
// params: $agent_id, $rows (list of maps {decision, observation, steps, lessons, pattern_key}:
//   decision, observation and each step and lesson a map of node properties, agent_id
//   included)
// returns: written (number of decisions)
UNWIND $rows AS row
CREATE (o:Observation)
SET o = row.observation
CREATE (d:Decision)
SET d = row.decision
CREATE (d)-[:CONSIDERED]->(o)
WITH d, row
CALL (d) {
  WITH d WHERE d.type = "escalate" OR (d.type = "act" AND coalesce(d.executed, false))
  SET d:Consequential
}
CALL (d, row) {
  UNWIND row.steps AS step
  CREATE (s:ReasoningStep)
  SET s = step
  CREATE (d)-[:HAS_STEP {order: step.order}]->(s)
}
CALL (d, row) {
  UNWIND row.lessons AS lesson
  CREATE (l:Lesson)
  SET l = lesson
  CREATE (l)-[:LEARNED_FROM]->(d)
}
CALL (d, row) {
  MATCH (p:Pattern {agent_id: $agent_id, key: row.pattern_key})
  CREATE (d)-[:MATCHED]->(p)
}
RETURN count(*) AS written
