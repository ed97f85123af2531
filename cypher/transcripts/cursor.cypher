// purpose: where the last read of a Claude Code session's transcript stopped (issue 58): the
//   byte offset and line count after the last whole line read, and how many lines were
//   skipped as not Claude Code's JSONL so far
// params: $agent_id, $session_id
// returns: offset, line, skipped, path; no row when the transcript was never read
// mode: read
MATCH (c:Transcript {agent_id: $agent_id, session_id: $session_id})
RETURN c.offset AS offset, c.line AS line, c.skipped AS skipped, c.path AS path
LIMIT 1
