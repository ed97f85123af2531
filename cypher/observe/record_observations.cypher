// purpose: write a batch of observations, each linked ABOUT the File it concerns, and bring the
//   File node up to date (the clauses are fragments/record_observation). The fast way: no
//   observation of the batch may be stored already. One that is makes the statement fail on
//   the unique id (nothing of the chunk is written), and the writer runs the chunk again
//   through observe/record_observations_checked, which leaves it out. Looking every id up
//   first cost a tenth to a sixth of the write (bench/HISTORY.md, issue 28), and the
//   constraint makes that same lookup anyway.
// params: $rows: list of maps {id, agent_id, at (datetime), type, urgency, category, path,
//   path_pattern, content_hash, size, mtime, processed, metadata (JSON string), caused_by,
//   from_path, file_exists (bool), file_id, from_file_id}
// returns: written (number of observations written: every row)
UNWIND $rows AS row
{{ fragments/record_observation }}
RETURN count(*) AS written
