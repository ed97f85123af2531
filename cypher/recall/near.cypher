// purpose: hybrid recall's graph proximity: what lies near the question in the graph, closest
//   first: decisions about the same file, then about the same path pattern (newest first,
//   superseded ones left out), the lessons learned from those decisions, and the episodes of
//   the same session. Each list is empty when its key is null.
// params: $agent_id, $path, $path_pattern, $session_id (any may be null), $limit (per group)
// returns: label, id, text, at (ISO string), path, rank (0 closest; within a group, newest
//   first)
// mode: read
CALL () {
  WITH 1 AS one WHERE $limit > 0 AND $path IS NOT NULL
  MATCH (d:Decision)
  USING INDEX SEEK d:Decision(agent_id, path, at)
  WHERE d.agent_id = $agent_id AND d.path = $path AND d.at IS NOT NULL
    AND coalesce(d.status, "") <> "superseded"
  WITH d ORDER BY d.agent_id DESC, d.path DESC, d.at DESC LIMIT $limit
  RETURN d, 0 AS grp
  UNION ALL
  WITH 1 AS one WHERE $limit > 0 AND $path_pattern IS NOT NULL
  MATCH (d:Decision)
  USING INDEX SEEK d:Decision(agent_id, path_pattern, at)
  WHERE d.agent_id = $agent_id AND d.path_pattern = $path_pattern AND d.at IS NOT NULL
    AND coalesce(d.status, "") <> "superseded"
  WITH d ORDER BY d.agent_id DESC, d.path_pattern DESC, d.at DESC LIMIT $limit
  RETURN d, 1 AS grp
}
WITH d, min(grp) AS grp
ORDER BY grp, d.at DESC
LIMIT $limit
WITH collect({node: d, grp: grp}) AS decisions
CALL (decisions) {
  UNWIND decisions AS item
  WITH item.node AS d
  MATCH (l:Lesson)-[:LEARNED_FROM]->(d)
  WITH l ORDER BY l.at DESC LIMIT $limit
  RETURN collect(l) AS lessons
}
CALL () {
  WITH 1 AS one WHERE $limit > 0 AND $session_id IS NOT NULL
  MATCH (e:Episode)
  USING INDEX SEEK e:Episode(agent_id, session_id)
  WHERE e.agent_id = $agent_id AND e.session_id = $session_id
  WITH e ORDER BY e.at DESC LIMIT $limit
  RETURN collect(e) AS episodes
}
WITH [i IN range(0, size(decisions) - 1) | {label: "Decision", n: decisions[i].node, rank: i}]
     + [i IN range(0, size(lessons) - 1) | {label: "Lesson", n: lessons[i], rank: i}]
     + [i IN range(0, size(episodes) - 1) | {label: "Episode", n: episodes[i], rank: i}]
     AS items
UNWIND items AS item
WITH item.label AS label, item.n AS n, item.rank AS rank
RETURN label, n.id AS id, toString(n.at) AS at, n.path AS path, rank,
       CASE label
       WHEN "Decision" THEN coalesce(n.type, "") + " on " + coalesce(n.path, "") + ": "
                            + coalesce(n.reasoning, "")
       WHEN "Lesson" THEN coalesce(n.type, "lesson") + ": " + coalesce(n.reason, "")
       WHEN "Episode" THEN coalesce(n.summary, "")
       END AS text
