// purpose: uniqueness of id for every label of the graph model (ARCHITECTURE.md), and of
//   the natural keys that MERGE relies on (File path, Pattern key, Frame name per agent).
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE CONSTRAINT file_id IF NOT EXISTS FOR (n:File) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT observation_id IF NOT EXISTS FOR (n:Observation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT decision_id IF NOT EXISTS FOR (n:Decision) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT reasoning_step_id IF NOT EXISTS FOR (n:ReasoningStep) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT action_template_id IF NOT EXISTS FOR (n:ActionTemplate) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT execution_id IF NOT EXISTS FOR (n:Execution) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT pattern_id IF NOT EXISTS FOR (n:Pattern) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT lesson_id IF NOT EXISTS FOR (n:Lesson) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT escalation_id IF NOT EXISTS FOR (n:Escalation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT goal_id IF NOT EXISTS FOR (n:Goal) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT frame_id IF NOT EXISTS FOR (n:Frame) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT episode_id IF NOT EXISTS FOR (n:Episode) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT censor_id IF NOT EXISTS FOR (n:Censor) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT fact_id IF NOT EXISTS FOR (n:Fact) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT procedure_id IF NOT EXISTS FOR (n:Procedure) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT working_memory_id IF NOT EXISTS FOR (n:WorkingMemory) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT event_id IF NOT EXISTS FOR (n:Event) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT reflection_id IF NOT EXISTS FOR (n:Reflection) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT desire_id IF NOT EXISTS FOR (n:Desire) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT trajectory_id IF NOT EXISTS FOR (n:Trajectory) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT heuristic_id IF NOT EXISTS FOR (n:Heuristic) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT rsicycle_id IF NOT EXISTS FOR (n:RSICycle) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT migration_name IF NOT EXISTS FOR (n:Migration) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT file_agent_path IF NOT EXISTS FOR (n:File) REQUIRE (n.agent_id, n.path) IS UNIQUE;
CREATE CONSTRAINT pattern_agent_key IF NOT EXISTS FOR (n:Pattern) REQUIRE (n.agent_id, n.key) IS UNIQUE;
CREATE CONSTRAINT frame_agent_name IF NOT EXISTS FOR (n:Frame) REQUIRE (n.agent_id, n.name) IS UNIQUE;
CREATE CONSTRAINT action_template_agent_name_version IF NOT EXISTS FOR (n:ActionTemplate) REQUIRE (n.agent_id, n.name, n.version) IS UNIQUE;
CREATE CONSTRAINT working_memory_agent_session IF NOT EXISTS FOR (n:WorkingMemory) REQUIRE (n.agent_id, n.session_id) IS UNIQUE;
