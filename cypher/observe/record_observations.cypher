// purpose: write a batch of observations of any kind: each Observation, the File it is ABOUT
//   brought up to date (when it has a path), MOVED_FROM the old path's File of a move, CAUSED_BY
//   the Execution of the agent's own edit. A batch whose rows all have a File and nothing more
//   is written by observe/record_file_observations instead. The fast way: no observation of the batch may be
//   stored already. One that is makes the statement fail on the unique id (nothing of the chunk
//   is written), and the writer runs the chunk again through
//   observe/record_observations_checked, which leaves it out. Looking every id up first cost a
//   tenth to a sixth of the write (bench/HISTORY.md, issue 28), and the constraint makes that
//   same lookup anyway.
// params: $rows: list of maps {id, agent_id, at (datetime), type, urgency, category, path,
//   path_pattern, content_hash, size, mtime, processed, metadata (JSON string), caused_by,
//   from_path, file_exists (bool), file_id, from_file_id}
// returns: written (number of observations written: every row)
UNWIND $rows AS row
{{ fragments/observation_node }}
WITH o, row
CALL (o, row) {
  WITH o, row WHERE row.path IS NOT NULL
  {{ fragments/observation_file }}
}
{{ fragments/observation_links }}
RETURN count(*) AS written
