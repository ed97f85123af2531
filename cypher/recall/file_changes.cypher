// purpose: what recently changed in the files a prompt or question names: for each path, how
//   often it changed (the observations about it, counted up to 500), the newest changes, and
//   who made each: the agent (the observation was caused_by one of its executions, the same
//   execution its CAUSED_BY relationship leads to) or a person (no execution caused it).
// params: $agent_id, $paths (list of paths relative to the watched root), $limit (changes
//   listed per path)
// returns: one row per path that has changes, in the order given: path, total, by_agent,
//   changes (newest first, at most $limit: maps {at, type, by ("agent" or "person"),
//   execution_id})
// mode: read
UNWIND range(0, size($paths) - 1) AS position
WITH position, $paths[position] AS path
CALL (path) {
  MATCH (o:Observation)
  USING INDEX SEEK o:Observation(agent_id, path)
  WHERE o.agent_id = $agent_id AND o.path = path AND o.at IS NOT NULL
  WITH o ORDER BY o.at DESC LIMIT 500
  RETURN count(o) AS total, count(o.caused_by) AS by_agent,
         collect({at: toString(o.at), type: o.type, execution_id: o.caused_by,
                  by: CASE WHEN o.caused_by IS NULL THEN "person" ELSE "agent" END})[..$limit]
           AS changes
}
WITH position, path, total, by_agent, changes WHERE total > 0
RETURN path, total, by_agent, changes
ORDER BY position
