// purpose: the replay benchmark's file observations not made by the agent itself, one row each,
//   with how long until the first decision that considered it (bench/replay.py; a change
//   folded into its file's settled decision counts from when it was folded, CONSIDERED.at)
// params: $agent_id
// returns: path, type, category, lag_ms (milliseconds from the observation to its first
//   decision, or null when none considered it yet)
// mode: read
MATCH (o:Observation)
WHERE o.agent_id = $agent_id AND o.at IS NOT NULL AND o.type STARTS WITH "file_"
  AND o.caused_by IS NULL
OPTIONAL CALL (o) {
  MATCH (d:Decision)-[c:CONSIDERED]->(o)
  RETURN min(coalesce(c.at, d.at)) AS first
}
RETURN o.path AS path, o.type AS type, o.category AS category,
  CASE WHEN first IS NULL THEN null ELSE duration.inSeconds(o.at, first).milliseconds END
    AS lag_ms
