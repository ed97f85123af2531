// purpose: the self-improvement figures of one time window (M1-M5): cycle counts (activation
//   rate), rejection reasons, practice by domain and difficulty, heuristics crystallized and
//   pruned, clarifications waiting, and the direction variance part 1's cycles stored
// params: $agent_id, $since (datetime or null: from the start), $until (datetime or null: now)
// returns: one row: cycles {count, processed, accepted, rejected, practiced, succeeded,
//   crystallized, variance (mean direction_variance, or null), practicing (cycles that
//   practiced), bootstrap (of those, on a bootstrap desire), trials, activated,
//   rejected_heuristics}, not_practiced (list of {reason, count}: why the other cycles did
//   not practice), rejections (list of {reason, count}), practice (list of {domain,
//   difficulty, attempts, successes}), crystallized, pruned, clarifications
// mode: read
CALL () {
  MATCH (c:RSICycle)
  USING INDEX c:RSICycle(agent_id, at)
  WHERE c.agent_id = $agent_id AND c.at IS NOT NULL AND coalesce(c.kind, "cycle") = "cycle"
    AND ($since IS NULL OR c.at >= $since) AND ($until IS NULL OR c.at < $until)
  RETURN {count: count(c), processed: sum(coalesce(c.processed, 0)),
          accepted: sum(coalesce(c.accepted, 0)), rejected: sum(coalesce(c.rejected, 0)),
          practiced: sum(coalesce(c.practiced, 0)), succeeded: sum(coalesce(c.succeeded, 0)),
          crystallized: sum(coalesce(c.crystallized, 0)),
          variance: avg(c.direction_variance),
          practicing: count(CASE WHEN coalesce(c.practiced, 0) > 0 THEN c END),
          bootstrap: count(CASE WHEN coalesce(c.practiced, 0) > 0
                                 AND c.practice_origin = "bootstrap" THEN c END),
          trials: sum(coalesce(c.trials, 0)), activated: sum(coalesce(c.activated, 0)),
          rejected_heuristics: sum(coalesce(c.rejected_heuristics, 0))} AS cycles
}
CALL () {
  OPTIONAL MATCH (c:RSICycle)
  USING INDEX c:RSICycle(agent_id, at)
  WHERE c.agent_id = $agent_id AND c.at IS NOT NULL AND coalesce(c.kind, "cycle") = "cycle"
    AND ($since IS NULL OR c.at >= $since) AND ($until IS NULL OR c.at < $until)
    AND coalesce(c.practiced, 0) = 0
  WITH coalesce(c.skipped, CASE WHEN c.error IS NOT NULL THEN "failed: " + c.error END,
                "unrecorded (a cycle from before reasons were kept)") AS reason, count(c) AS n
  WHERE n > 0
  WITH reason, n ORDER BY n DESC, reason
  RETURN collect({reason: reason, count: n}) AS not_practiced
}
CALL () {
  OPTIONAL MATCH (d:Desire)
  USING INDEX d:Desire(agent_id, status)
  WHERE d.agent_id = $agent_id AND d.status = "rejected"
    AND ($since IS NULL OR d.at >= $since) AND ($until IS NULL OR d.at < $until)
  WITH coalesce(d.rejection_reason, "unspecified") AS reason, count(d) AS n
  WHERE n > 0
  WITH reason, n ORDER BY n DESC, reason
  RETURN collect({reason: reason, count: n}) AS rejections
}
CALL () {
  OPTIONAL MATCH (t:Trajectory)
  USING INDEX t:Trajectory(agent_id, at)
  WHERE t.agent_id = $agent_id AND t.at IS NOT NULL
    AND ($since IS NULL OR t.at >= $since) AND ($until IS NULL OR t.at < $until)
  WITH coalesce(t.domain, "unknown") AS domain, coalesce(t.difficulty, "unknown") AS difficulty,
       count(t) AS attempts, sum(CASE WHEN t.success = true THEN 1 ELSE 0 END) AS successes
  WHERE attempts > 0
  WITH domain, difficulty, attempts, successes ORDER BY domain, difficulty
  RETURN collect({domain: domain, difficulty: difficulty, attempts: attempts,
                  successes: successes}) AS practice
}
CALL () {
  OPTIONAL MATCH (h:Heuristic)
  USING INDEX h:Heuristic(agent_id, at)
  WHERE h.agent_id = $agent_id AND h.at IS NOT NULL
  RETURN count(CASE WHEN ($since IS NULL OR h.at >= $since) AND ($until IS NULL OR h.at < $until)
                    THEN h END) AS crystallized,
         count(CASE WHEN h.pruned_at IS NOT NULL AND ($since IS NULL OR h.pruned_at >= $since)
                         AND ($until IS NULL OR h.pruned_at < $until) THEN h END) AS pruned
}
CALL () {
  OPTIONAL MATCH (d:Desire)
  USING INDEX d:Desire(agent_id, at)
  WHERE d.agent_id = $agent_id AND d.at IS NOT NULL
    AND ($since IS NULL OR d.at >= $since) AND ($until IS NULL OR d.at < $until)
  RETURN count(CASE WHEN d.status = "needs_clarification" THEN d END) AS clarifications
}
RETURN cycles, not_practiced, rejections, practice, crystallized, pruned, clarifications
