// purpose: the replay benchmark's decisions, one row each: type, template, file, how many
//   observations it CONSIDERED, and, for one that re-decided another (SUPERSEDES), how many of
//   those the earlier one had not considered (0: a re-check that found nothing new)
// params: $agent_id
// returns: type, template, path, status, considered, redecided (bool), new_considered (null
//   unless redecided)
// mode: read
MATCH (d:Decision)
WHERE d.agent_id = $agent_id AND d.at IS NOT NULL
OPTIONAL CALL (d) {
  MATCH (d)-[:SUPERSEDES]->(old:Decision)
  RETURN count(old) > 0 AS redecided,
    COUNT { (d)-[:CONSIDERED]->(o) WHERE NOT (old)-[:CONSIDERED]->(o) } AS fresh
}
RETURN d.type AS type, d.template AS template, d.path AS path, d.status AS status,
  COUNT { (d)-[:CONSIDERED]->() } AS considered, coalesce(redecided, false) AS redecided,
  CASE WHEN redecided THEN fresh ELSE null END AS new_considered
