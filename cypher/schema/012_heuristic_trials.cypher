// purpose: a HeuristicTrial is looked up by id (nous heuristics show reaches it through
//   TRIED_IN from its heuristic)
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT heuristic_trial_id IF NOT EXISTS FOR (n:HeuristicTrial) REQUIRE n.id IS UNIQUE;
