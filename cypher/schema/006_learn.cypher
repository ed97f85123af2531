// purpose: what learning looks things up by: a censor by its exact trigger (create or fire the
//   same censor again), decisions by calibration bucket (the calibration audit), and at most
//   one open episode per session, enforced by the database: an open episode carries
//   open_session (its session id), removed when it ends; nodes without the property are not
//   constrained.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE INDEX censor_agent_trigger IF NOT EXISTS FOR (n:Censor) ON (n.agent_id, n.trigger_pattern);
CREATE INDEX decision_agent_calibration IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.calibration_bucket);
CREATE CONSTRAINT episode_agent_open_session IF NOT EXISTS FOR (n:Episode) REQUIRE (n.agent_id, n.open_session) IS UNIQUE;
