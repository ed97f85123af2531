// purpose: where a decision was stated and what it concerns, as the graph links them (issue 58):
//   the Utterance or Commit it is STATED_IN (with the Turn the utterance belongs to) and the
//   File nodes it CONCERNS; for `nous why` and audits
// params: $agent_id, $decision_id
// returns: stated_in (list of maps: label, id, sha, session_id, turn_id), concerns (list of
//   paths); no row when the id is not a decision this agent sees
// mode: read
MATCH (d:Fact {id: $decision_id})
WHERE d.kind = 'decision' AND (d.scope = 'project' OR d.agent_id = $agent_id)
CALL (d) {
  OPTIONAL MATCH (d)-[:STATED_IN]->(s)
  OPTIONAL MATCH (s)-[:IN_TURN]->(t:Turn)
  RETURN collect(CASE WHEN s IS NULL THEN null ELSE
    {label: head(labels(s)), id: s.id, sha: s.sha, session_id: s.session_id, turn_id: t.id}
  END) AS stated_in
}
CALL (d) {
  OPTIONAL MATCH (d)-[:CONCERNS]->(f:File)
  RETURN collect(f.path) AS concerns
}
RETURN stated_in, concerns
