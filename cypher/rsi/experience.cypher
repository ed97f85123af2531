// purpose: what the agent went through since its last RSI cycle began (a prune job's run
//   does not count), for reflection (seed 003 A2):
//   decisions with their outcomes (surprising ones marked), failed executions with their
//   failure type and path pattern, escalations, censors that fired, lessons, and patterns
//   that mostly fail; each kind newest first, at most $per_kind of it
// note: the "at IS NOT NULL" terms let each label be read from its (agent_id, at) index
// params: $agent_id, $per_kind
// returns: one row per item: label, id, kind, at (ISO string), facts (map)
// mode: read
OPTIONAL MATCH (c:RSICycle)
WHERE c.agent_id = $agent_id AND c.at IS NOT NULL AND coalesce(c.kind, "cycle") = "cycle"
WITH coalesce(max(c.at), datetime({epochMillis: 0})) AS since
CALL (since) {
  MATCH (d:Decision)
  WHERE d.agent_id = $agent_id AND d.at > since AND d.outcome_success IS NOT NULL
  WITH d ORDER BY d.at DESC LIMIT $per_kind
  RETURN "Decision" AS label, d.id AS id, d.at AS at,
         CASE WHEN (d.confidence >= 0.8 AND NOT d.outcome_success)
                OR (d.confidence < 0.4 AND d.outcome_success) THEN "surprise"
              ELSE "decision" END AS kind,
         {type: d.type, template: d.template, path: d.path, path_pattern: d.path_pattern,
          confidence: d.confidence, outcome: d.outcome, success: d.outcome_success} AS facts
  UNION ALL
  MATCH (x:Execution)
  WHERE x.agent_id = $agent_id AND x.success = false AND x.at > since
  OPTIONAL MATCH (dec:Decision)-[:EXECUTED_AS]->(x)
  WITH x, dec ORDER BY x.at DESC LIMIT $per_kind
  RETURN "Execution" AS label, x.id AS id, x.at AS at, "failure" AS kind,
         {template: x.template, failure_type: x.failure_type, error: x.error,
          path: dec.path, path_pattern: dec.path_pattern} AS facts
  UNION ALL
  MATCH (e:Escalation)
  WHERE e.agent_id = $agent_id AND e.at > since
  WITH e ORDER BY e.at DESC LIMIT $per_kind
  RETURN "Escalation" AS label, e.id AS id, e.at AS at, "escalation" AS kind,
         {reason: e.reason, priority: e.priority, status: e.status} AS facts
  UNION ALL
  MATCH (c:Censor)
  WHERE c.agent_id = $agent_id AND c.at IS NOT NULL AND c.last_fired_at > since
  WITH c ORDER BY c.last_fired_at DESC LIMIT $per_kind
  RETURN "Censor" AS label, c.id AS id, c.last_fired_at AS at, "censor" AS kind,
         {trigger: c.trigger_pattern, reason: c.reason, severity: c.severity,
          fire_count: c.fire_count} AS facts
  UNION ALL
  MATCH (l:Lesson)
  WHERE l.agent_id = $agent_id AND l.at > since
  WITH l ORDER BY l.at DESC LIMIT $per_kind
  RETURN "Lesson" AS label, l.id AS id, l.at AS at, "lesson" AS kind,
         {type: l.type, pattern_key: l.pattern_key, adjustment: l.adjustment,
          reason: l.reason} AS facts
  UNION ALL
  MATCH (p:Pattern)
  WHERE p.agent_id = $agent_id AND p.at IS NOT NULL AND p.total >= 3
    AND p.successes * 2 < p.total
  WITH p ORDER BY p.total DESC LIMIT $per_kind
  RETURN "Pattern" AS label, p.id AS id, coalesce(p.last_used, p.at) AS at,
         "weak_pattern" AS kind,
         {key: p.key, total: p.total, successes: p.successes} AS facts
}
RETURN label, id, kind, toString(at) AS at, facts
ORDER BY at DESC
