// purpose: the recall benchmark's synthetic episodes, one batch (lessons_text is the joined
//   lessons the full-text index reads)
// params: $agent_id, $rows (list of maps of Episode properties, agent_id and lessons_text
//   included)
// returns: written (number of episodes)
UNWIND $rows AS row
CREATE (e:Episode)
SET e = row
RETURN count(*) AS written
