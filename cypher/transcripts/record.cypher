// purpose: keep what one read of a session's transcript found (issue 58): the session's
//   Transcript cursor moved to where the read stopped, and one Utterance per thing said
//   (speaker user or assistant, its text, the transcript line and time), IN_TURN the turn
//   given ($rows' turn_id, matched by the caller; null: none). An utterance's id is derived
//   from the agent, the session and the line, so a line read twice is kept once (MERGE).
// params: $agent_id, $session_id, $path, $offset, $line, $skipped (lines skipped by this
//   read), $now (datetime), $rows (list of maps: id, speaker, text, line, time, turn_id)
// returns: kept (how many utterances the rows hold)
MERGE (c:Transcript {agent_id: $agent_id, session_id: $session_id})
  ON CREATE SET c.id = randomUUID(), c.at = $now, c.skipped = 0
SET c.offset = $offset, c.line = $line, c.path = $path, c.read_at = $now,
    c.skipped = c.skipped + $skipped
WITH c
CALL (c) {
  UNWIND $rows AS row
  MERGE (u:Utterance {id: row.id})
    ON CREATE SET u.agent_id = $agent_id, u.session_id = $session_id, u.speaker = row.speaker,
                  u.text = row.text, u.line = row.line, u.time = row.time, u.at = $now
  WITH u, row
  CALL (u, row) {
    MATCH (t:Turn {id: row.turn_id})
    WHERE t.agent_id = $agent_id
    MERGE (u)-[:IN_TURN]->(t)
  }
  RETURN count(u) AS kept
}
RETURN kept
