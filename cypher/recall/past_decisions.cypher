// purpose: past decisions on observations like the one in hand, with their outcome, in one
//   round trip: about the same file, of the same kind (category and observation type), and
//   in the same folder with the same extension (path pattern); each group newest first.
//   A decision in several groups is kept in the closest (file, then kind, then folder); at
//   most $limit in all, taken from the groups in turn. Superseded decisions (re-decided
//   later) are left out: their outcome never comes.
// params: $agent_id, $path, $category, $observation_type, $path_pattern (any may be null:
//   that group is then empty), $limit (decisions in all, and read per group)
// returns: one row: decisions (list of maps {id, at, type, confidence, template,
//   category, observation_type, path, executed, outcome, outcome_success, similarity:
//   "same_file" | "same_kind" | "same_pattern"}), by group, newest first in each
// mode: read
// note: "ORDER BY d.agent_id, d.<key>, d.at DESC" equals "ORDER BY d.at DESC" under the
//   equality predicates, and lets the planner take the order from the 005 indexes instead of
//   sorting every match; "d.at IS NOT NULL" is the predicate a composite index needs. The
//   SEEK hints (in every recall/ file) keep the planner on a seek by agent: left alone it
//   sometimes picked the shorter indexes, or an ordered index *scan* that reads every agent's
//   entries (no label scan, so no test noticed, but its cost grows with the whole graph). One row
//   with a list, not a row per decision, and times as ISO strings (toString), not datetimes:
//   the Python driver's cost is per record and per datetime, more than the query's own.
CALL () {
  MATCH (d:Decision)
  USING INDEX SEEK d:Decision(agent_id, path, at)
  WHERE d.agent_id = $agent_id AND d.path = $path AND d.at IS NOT NULL
    AND coalesce(d.status, "") <> "superseded"
  RETURN d, 0 AS rank
  ORDER BY d.agent_id DESC, d.path DESC, d.at DESC
  LIMIT $limit
  UNION ALL
  MATCH (d:Decision)
  USING INDEX SEEK d:Decision(agent_id, category, observation_type, at)
  WHERE d.agent_id = $agent_id AND d.category = $category
    AND d.observation_type = $observation_type AND d.at IS NOT NULL
    AND coalesce(d.status, "") <> "superseded"
  RETURN d, 1 AS rank
  ORDER BY d.agent_id DESC, d.category DESC, d.observation_type DESC, d.at DESC
  LIMIT $limit
  UNION ALL
  MATCH (d:Decision)
  USING INDEX SEEK d:Decision(agent_id, path_pattern, at)
  WHERE d.agent_id = $agent_id AND d.path_pattern = $path_pattern AND d.at IS NOT NULL
    AND coalesce(d.status, "") <> "superseded"
  RETURN d, 2 AS rank
  ORDER BY d.agent_id DESC, d.path_pattern DESC, d.at DESC
  LIMIT $limit
}
WITH d, min(rank) AS rank
ORDER BY rank, d.at DESC
// Take the groups in turn (newest of each, then the next …) so that none crowds out the rest.
WITH rank, collect(d) AS group
UNWIND range(0, size(group) - 1) AS turn
WITH rank, group[turn] AS d, turn
ORDER BY turn, rank
LIMIT $limit
WITH d, rank
ORDER BY rank, d.at DESC
RETURN collect(d {.id, at: toString(d.at), .type, .confidence, .template, .category,
                  .observation_type, .path, .executed, .outcome, .outcome_success,
                  similarity: ["same_file", "same_kind", "same_pattern"][rank]}) AS decisions
