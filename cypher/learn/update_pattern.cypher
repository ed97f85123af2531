// purpose: count one outcome in a pattern's statistics (seed 000 section 5.1): total + 1,
//   successes + 1 on success, the running average confidence
//   (avg * total + confidence) / (total + 1), and last_used; the Pattern is created if absent
// params: $agent_id, $id (id for a new Pattern), $key, $success (bool), $confidence (float),
//   $now (datetime)
// returns: pattern (map of the Pattern's properties after the update)
MERGE (p:Pattern {agent_id: $agent_id, key: $key})
  ON CREATE SET p.id = $id, p.at = $now, p.total = 0, p.successes = 0, p.avg_confidence = 0.0
WITH p, coalesce(p.total, 0) AS total, coalesce(p.successes, 0) AS successes,
     coalesce(p.avg_confidence, 0.0) AS avg
SET p.total = total + 1,
    p.successes = successes + CASE WHEN $success THEN 1 ELSE 0 END,
    p.avg_confidence = (avg * total + $confidence) / (total + 1),
    p.last_used = $now
RETURN properties(p) AS pattern
