// purpose: only decisions that did something are found by words (issue 28, "as fast as it
//   was"). Every Decision was a document of recall_words, yet every reader of its decisions
//   wants only those that did something: hybrid recall for a prompt or MCP (useful_only) and
//   recall/investigate (decisions with an outcome). Lucene kept every WAIT current anyway:
//   about 3 ms of the server's CPU per decision on bench.loop (its background IndexUpdate
//   work; eventually consistent since 007), a quarter of a decision's server time. A decision
//   that did something (an escalation, an action that ran for real: not a dry run's) now
//   carries a second label, Consequential (record_decision and start_execution set it), and
//   recall_words indexes that label instead of Decision. The decisions already stored get it
//   here, a chunk at a time; the data statement matches only those still without it and the
//   index is dropped and made again, so a migration cut half way is run again.
// params: none
// returns: nothing
MATCH (d:Decision)
WHERE NOT d:Consequential
  AND (d.type = "escalate"
       OR (d.type = "act" AND coalesce(d.executed, false)
           AND EXISTS { (d)-[:EXECUTED_AS]->(x:Execution) WHERE NOT coalesce(x.dry_run, false) }))
CALL (d) { SET d:Consequential } IN TRANSACTIONS OF 10000 ROWS;
DROP INDEX recall_words IF EXISTS;
CREATE FULLTEXT INDEX recall_words IF NOT EXISTS
  FOR (n:Consequential|Lesson|Fact|Procedure|Episode|Heuristic|Censor)
  ON EACH [n.agent_id, n.reasoning, n.reason, n.adjustment, n.content, n.name, n.domain,
           n.core_patterns_text, n.summary, n.lessons_text, n.trigger_pattern, n.text_in_context]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'english', `fulltext.eventually_consistent`: true}};
