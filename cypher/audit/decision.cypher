// purpose: one decision with what it considered, recalled, matched, used and applied: the
//   start of `nous why`
// params: $agent_id, $decision_id
// returns: decision (map of its properties), observations (list of maps {id, at, type,
//   urgency, category, path}), recalled (list of maps {id, at, type, path, outcome_success}),
//   pattern (map {key, total, successes} or null), template (map {name, version, target} or
//   null), heuristics (list of maps {id, domain, content, status}), episode_id (or null);
//   no row when there is no such decision
// mode: read
MATCH (d:Decision {id: $decision_id})
WHERE d.agent_id = $agent_id
OPTIONAL MATCH (d)-[:MATCHED]->(p:Pattern)
OPTIONAL MATCH (d)-[:USED]->(t:ActionTemplate)
OPTIONAL MATCH (d)-[:IN_EPISODE]->(ep:Episode)
RETURN properties(d) AS decision,
       COLLECT {
         MATCH (d)-[:CONSIDERED]->(o:Observation)
         RETURN o {.id, .at, .type, .urgency, .category, .path} ORDER BY o.at
       } AS observations,
       COLLECT {
         MATCH (d)-[:RECALLED]->(past:Decision)
         RETURN past {.id, .at, .type, .path, .outcome_success} ORDER BY past.at DESC
       } AS recalled,
       CASE WHEN p IS NULL THEN null ELSE p {.key, .total, .successes} END AS pattern,
       CASE WHEN t IS NULL THEN null ELSE t {.name, .version, .target} END AS template,
       COLLECT {
         MATCH (d)-[:APPLIED]->(h:Heuristic)
         RETURN h {.id, .domain, .content, .status}
       } AS heuristics,
       ep.id AS episode_id
