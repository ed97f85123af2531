// purpose: a chat turn's decision, once closed, is found by words (migration 021 made only
//   decisions that did something documents of recall_words, and left out the turns of Claude
//   Code sessions, whose work Nous did not run itself). chat/close_decision labels them from
//   now on; the turns already closed get the label here, a chunk at a time, matching only
//   those still without it, so a migration cut half way is run again.
// params: none
// returns: nothing
MATCH (d:Decision)
WHERE NOT d:Consequential AND d.observation_type = "user_input" AND d.session_id IS NOT NULL
  AND d.outcome IS NOT NULL
CALL (d) { SET d:Consequential } IN TRANSACTIONS OF 10000 ROWS;
