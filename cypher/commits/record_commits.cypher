// purpose: write commits read from git (admitted: secrets out, within limits) as Commit nodes
//   TOUCHED->File, and the sha read last as the CommitLog's head, in one transaction. A commit
//   already kept (the same sha) is left as it was; a File is MERGEd by (agent_id, path) as the
//   watcher's observations do, so the commit and the file's observations meet on one node.
// params: $agent_id, $rows (list of maps {id, sha, subject, body, author, authored_at (datetime),
//   files_text, files: list of {path, file_id}}), $head (sha), $log_id, $now (datetime)
// returns: written (commits new in this call)
// mode: write
CALL () {
  UNWIND $rows AS row
  MERGE (c:Commit {agent_id: $agent_id, sha: row.sha})
    ON CREATE SET c.id = row.id, c.at = $now, c.subject = row.subject, c.body = row.body,
      c.author = row.author, c.authored_at = row.authored_at, c.files_text = row.files_text,
      c.new = true
  WITH c, row WHERE c.new
  REMOVE c.new
  WITH c, row
  CALL (c, row) {
    UNWIND row.files AS file
    MERGE (f:File {agent_id: $agent_id, path: file.path})
      ON CREATE SET f.id = file.file_id, f.at = $now
    MERGE (c)-[:TOUCHED]->(f)
  }
  RETURN count(c) AS written
}
MERGE (g:CommitLog {agent_id: $agent_id})
  ON CREATE SET g.id = $log_id, g.at = $now
SET g.head = $head, g.read_at = $now
RETURN written
