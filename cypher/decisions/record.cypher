// purpose: keep decisions as stated (issue 58): one Fact {kind: 'decision'} per row, STATED_IN
//   the Utterance it was said in (row.utterance_id) or the Commit it was written in
//   (row.sha, when this agent's Commit node of that sha exists), CONCERNS the agent's File nodes it names
//   (row.files, those that exist). valid_from is when it was stated.
// params: $agent_id, $now (datetime), $rows (list of maps: id, text, decision_text,
//   subject_text, subjects,
//   files, project, scope, valid_from (ISO 8601 text), source ('session' or 'commit'),
//   session_id, speaker, sha, utterance_id (each of the last four may be null))
// returns: id of each decision kept
UNWIND $rows AS row
CREATE (f:Fact {id: row.id})
SET f.agent_id = $agent_id, f.at = $now, f.kind = 'decision', f.text = row.text,
    f.decision_text = row.decision_text, f.subject_text = row.subject_text, f.subjects = row.subjects, f.files = row.files,
    f.project = row.project, f.scope = row.scope, f.valid_from = datetime(row.valid_from),
    f.source = row.source, f.session_id = row.session_id, f.speaker = row.speaker,
    f.sha = row.sha, f.confirmations = 0
WITH f, row
CALL (f, row) {
  MATCH (u:Utterance {id: row.utterance_id})
  WHERE u.agent_id = $agent_id
  MERGE (f)-[:STATED_IN]->(u)
}
CALL (f, row) {
  WITH f, row WHERE row.sha IS NOT NULL
  MATCH (c:Commit {agent_id: $agent_id, sha: row.sha})
  WITH f, c LIMIT 1
  MERGE (f)-[:STATED_IN]->(c)
}
CALL (f, row) {
  UNWIND row.files AS path
  MATCH (file:File {agent_id: $agent_id, path: path})
  MERGE (f)-[:CONCERNS]->(file)
}
RETURN f.id AS id
