// purpose: everything recall gathers for one decision, in one round trip (what Recall.build
//   runs), one subquery per section returning one list: past decisions on observations like
//   the one in hand, with their outcome (about the same file, of the same kind, in the same
//   folder with the same extension; a decision in several groups kept in the closest; newest
//   first; taken from the groups in turn; superseded ones left out), pattern statistics by key
//   and the top patterns of the category, active goals, censors (block first), working
//   memory, and facts, procedures, episodes and lessons by full text.
//   A part whose limit is 0 is not queried (its subquery stops before touching an index).
// params: $agent_id; past decisions: $path, $category, $observation_type, $path_pattern
//   (any may be null: that group is then empty), $decisions_limit (in all); patterns: $keys,
//   $prefix, $patterns_limit; $goals_limit, $censors_limit; $session_id (or null); full text:
//   $query (a Lucene query string built from escaped words, or "" for none), $facts_limit,
//   $procedures_limit, $episodes_limit, $lessons_limit. Strategies are not recalled here:
//   the system prompt of every LLM request carries them (rsi.strategies).
// returns: one row: decisions, patterns, top_patterns, goals, censors, working_memory (map or
//   null), facts, procedures, episodes, lessons (lists of maps)
// mode: read
// note: "ORDER BY d.agent_id, d.<key>, d.at DESC" equals "ORDER BY d.at DESC" under the
//   equality predicates, and lets the planner take the order from the 005 indexes instead of
//   sorting every match; "d.at IS NOT NULL" is the predicate a composite index needs. The
//   SEEK hints keep the planner on a seek by agent: left alone it sometimes picked the
//   shorter indexes, or an ordered index *scan* that reads every agent's entries. One row
//   with lists, not a row per item, and times as ISO strings (toString), not datetimes: the
//   Python driver's cost is per record and per datetime, more than the query's own.
CALL () {
  CALL () {
    WITH 1 AS one WHERE $decisions_limit > 0
    MATCH (d:Decision)
    USING INDEX SEEK d:Decision(agent_id, path, at)
    WHERE d.agent_id = $agent_id AND d.path = $path AND d.at IS NOT NULL
      AND coalesce(d.status, "") <> "superseded"
    RETURN d, 0 AS rank
    ORDER BY d.agent_id DESC, d.path DESC, d.at DESC
    LIMIT $decisions_limit
    UNION ALL
    WITH 1 AS one WHERE $decisions_limit > 0
    MATCH (d:Decision)
    USING INDEX SEEK d:Decision(agent_id, category, observation_type, at)
    WHERE d.agent_id = $agent_id AND d.category = $category
      AND d.observation_type = $observation_type AND d.at IS NOT NULL
      AND coalesce(d.status, "") <> "superseded"
    RETURN d, 1 AS rank
    ORDER BY d.agent_id DESC, d.category DESC, d.observation_type DESC, d.at DESC
    LIMIT $decisions_limit
    UNION ALL
    WITH 1 AS one WHERE $decisions_limit > 0
    MATCH (d:Decision)
    USING INDEX SEEK d:Decision(agent_id, path_pattern, at)
    WHERE d.agent_id = $agent_id AND d.path_pattern = $path_pattern AND d.at IS NOT NULL
      AND coalesce(d.status, "") <> "superseded"
    RETURN d, 2 AS rank
    ORDER BY d.agent_id DESC, d.path_pattern DESC, d.at DESC
    LIMIT $decisions_limit
  }
  WITH d, min(rank) AS rank
  ORDER BY rank, d.at DESC
  // Take the groups in turn (newest of each, then the next …) so that none crowds out the rest.
  WITH rank, collect(d) AS group
  UNWIND range(0, size(group) - 1) AS turn
  WITH rank, group[turn] AS d, turn
  ORDER BY turn, rank
  LIMIT $decisions_limit
  WITH d, rank
  ORDER BY rank, d.at DESC
  RETURN collect(d {.id, at: toString(d.at), .type, .confidence, .template,
                    .category, .observation_type, .path, .executed, .outcome, .outcome_success,
                    similarity: ["same_file", "same_kind", "same_pattern"][rank]}) AS decisions
}
CALL () {
  WITH 1 AS one WHERE $patterns_limit > 0
  MATCH (p:Pattern)
  USING INDEX SEEK p:Pattern(agent_id, key)
  WHERE p.agent_id = $agent_id AND p.key IN $keys
  WITH p
  ORDER BY p.total DESC, p.key
  RETURN collect(p {.id, at: toString(p.at), .key, .total, .successes, .avg_confidence,
                    last_used: toString(p.last_used)}) AS patterns
}
CALL () {
  WITH 1 AS one WHERE $patterns_limit > 0
  MATCH (p:Pattern)
  USING INDEX SEEK p:Pattern(agent_id, key)
  WHERE p.agent_id = $agent_id AND p.key STARTS WITH $prefix
  WITH p
  ORDER BY p.total DESC, p.key
  LIMIT $patterns_limit
  RETURN collect(p {.id, at: toString(p.at), .key, .total, .successes, .avg_confidence,
                    last_used: toString(p.last_used)}) AS top_patterns
}
CALL () {
  WITH 1 AS one WHERE $goals_limit > 0
  MATCH (g:Goal)
  USING INDEX SEEK g:Goal(agent_id, at)
  WHERE g.agent_id = $agent_id AND g.at IS NOT NULL AND g.completed_at IS NULL
  WITH g
  ORDER BY CASE g.priority WHEN "critical" THEN 0 WHEN "high" THEN 1 WHEN "medium" THEN 2
           WHEN "low" THEN 3 ELSE 2 END, g.at
  LIMIT $goals_limit
  RETURN collect(g {.id, at: toString(g.at), .description,
                    priority: coalesce(g.priority, "medium")}) AS goals
}
CALL () {
  WITH 1 AS one WHERE $censors_limit > 0
  MATCH (c:Censor)
  USING INDEX SEEK c:Censor(agent_id, status)
  WHERE c.agent_id = $agent_id AND c.status = "active"
  WITH c
  ORDER BY CASE c.severity WHEN "block" THEN 0 ELSE 1 END, coalesce(c.fire_count, 0) DESC, c.at
  LIMIT $censors_limit
  RETURN collect(c {.id, at: toString(c.at), .trigger_pattern, .reason, .status,
                    last_fired_at: toString(c.last_fired_at),
                    severity: coalesce(c.severity, "warn"),
                    fire_count: coalesce(c.fire_count, 0)}) AS censors
}
CALL () {
  WITH 1 AS one WHERE $session_id IS NOT NULL
  MATCH (w:WorkingMemory)
  USING INDEX SEEK w:WorkingMemory(agent_id, session_id)
  WHERE w.agent_id = $agent_id AND w.session_id = $session_id
  WITH w LIMIT 1
  RETURN collect(w {.id, at: toString(w.at), .session_id, .current_frame,
                    current_task: coalesce(w.current_task, ""),
                    open_threads: coalesce(w.open_threads, [])})[0] AS working_memory
}
CALL () {
  WITH 1 AS one WHERE $query <> "" AND $facts_limit > 0
  CALL db.index.fulltext.queryNodes("fact_text", $query) YIELD node, score
  WITH node, score
  WHERE node.agent_id = $agent_id
  WITH node, score
  LIMIT $facts_limit
  RETURN collect(node {.id, at: toString(node.at), .content,
                       confirmations: coalesce(node.confirmations, 1), score: score}) AS facts
}
CALL () {
  WITH 1 AS one WHERE $query <> "" AND $procedures_limit > 0
  CALL db.index.fulltext.queryNodes("procedure_text", $query) YIELD node, score
  WITH node, score
  WHERE node.agent_id = $agent_id
  WITH node, score
  LIMIT $procedures_limit
  RETURN collect(node {.id, at: toString(node.at), .name,
                       domain: coalesce(node.domain, ""),
                       core_patterns: coalesce(node.core_patterns, []),
                       score: score}) AS procedures
}
CALL () {
  WITH 1 AS one WHERE $query <> "" AND $episodes_limit > 0
  CALL db.index.fulltext.queryNodes("episode_text", $query) YIELD node, score
  WITH node, score
  WHERE node.agent_id = $agent_id
  WITH node, score
  LIMIT $episodes_limit
  RETURN collect(node {.id, at: toString(node.at), .outcome,
                       ended_at: toString(node.ended_at),
                       session_id: coalesce(node.session_id, ""),
                       started_at: toString(coalesce(node.started_at, node.at)),
                       summary: coalesce(node.summary, ""), lessons: coalesce(node.lessons, []),
                       score: score}) AS episodes
}
CALL () {
  WITH 1 AS one WHERE $query <> "" AND $lessons_limit > 0
  CALL db.index.fulltext.queryNodes("lesson_text", $query) YIELD node, score
  WITH node, score
  WHERE node.agent_id = $agent_id
  WITH node, score
  LIMIT $lessons_limit
  OPTIONAL CALL (node) {
    MATCH (node)-[:LEARNED_FROM]->(d:Decision)
    RETURN d.id AS learned_from
    LIMIT 1
  }
  RETURN collect(node {.id, at: toString(node.at), .pattern_key,
                       decision_id: coalesce(node.decision_id, learned_from, ""),
                       type: coalesce(node.type, "lesson"),
                       adjustment: coalesce(node.adjustment, ""),
                       reason: coalesce(node.reason, ""), score: score}) AS lessons
}
RETURN decisions, patterns, top_patterns, goals, censors, working_memory, facts, procedures,
       episodes, lessons
