// purpose: range indexes on what recall, audit and the loop filter by: agent_id with at for
//   every label, plus category, type, processed, status and the other recall keys.
// params: none
// returns: nothing; every statement is idempotent (IF NOT EXISTS)
CREATE INDEX file_agent_at IF NOT EXISTS FOR (n:File) ON (n.agent_id, n.at);
CREATE INDEX observation_agent_at IF NOT EXISTS FOR (n:Observation) ON (n.agent_id, n.at);
CREATE INDEX decision_agent_at IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.at);
CREATE INDEX reasoning_step_agent_at IF NOT EXISTS FOR (n:ReasoningStep) ON (n.agent_id, n.at);
CREATE INDEX action_template_agent_at IF NOT EXISTS FOR (n:ActionTemplate) ON (n.agent_id, n.at);
CREATE INDEX execution_agent_at IF NOT EXISTS FOR (n:Execution) ON (n.agent_id, n.at);
CREATE INDEX pattern_agent_at IF NOT EXISTS FOR (n:Pattern) ON (n.agent_id, n.at);
CREATE INDEX lesson_agent_at IF NOT EXISTS FOR (n:Lesson) ON (n.agent_id, n.at);
CREATE INDEX escalation_agent_at IF NOT EXISTS FOR (n:Escalation) ON (n.agent_id, n.at);
CREATE INDEX goal_agent_at IF NOT EXISTS FOR (n:Goal) ON (n.agent_id, n.at);
CREATE INDEX frame_agent_at IF NOT EXISTS FOR (n:Frame) ON (n.agent_id, n.at);
CREATE INDEX episode_agent_at IF NOT EXISTS FOR (n:Episode) ON (n.agent_id, n.at);
CREATE INDEX censor_agent_at IF NOT EXISTS FOR (n:Censor) ON (n.agent_id, n.at);
CREATE INDEX fact_agent_at IF NOT EXISTS FOR (n:Fact) ON (n.agent_id, n.at);
CREATE INDEX procedure_agent_at IF NOT EXISTS FOR (n:Procedure) ON (n.agent_id, n.at);
CREATE INDEX working_memory_agent_at IF NOT EXISTS FOR (n:WorkingMemory) ON (n.agent_id, n.at);
CREATE INDEX event_agent_at IF NOT EXISTS FOR (n:Event) ON (n.agent_id, n.at);
CREATE INDEX reflection_agent_at IF NOT EXISTS FOR (n:Reflection) ON (n.agent_id, n.at);
CREATE INDEX desire_agent_at IF NOT EXISTS FOR (n:Desire) ON (n.agent_id, n.at);
CREATE INDEX trajectory_agent_at IF NOT EXISTS FOR (n:Trajectory) ON (n.agent_id, n.at);
CREATE INDEX heuristic_agent_at IF NOT EXISTS FOR (n:Heuristic) ON (n.agent_id, n.at);
CREATE INDEX rsicycle_agent_at IF NOT EXISTS FOR (n:RSICycle) ON (n.agent_id, n.at);
CREATE INDEX observation_agent_processed IF NOT EXISTS FOR (n:Observation) ON (n.agent_id, n.processed, n.at);
CREATE INDEX observation_agent_category_type IF NOT EXISTS FOR (n:Observation) ON (n.agent_id, n.category, n.type);
CREATE INDEX observation_category IF NOT EXISTS FOR (n:Observation) ON (n.category);
CREATE INDEX observation_type IF NOT EXISTS FOR (n:Observation) ON (n.type);
CREATE INDEX observation_agent_path IF NOT EXISTS FOR (n:Observation) ON (n.agent_id, n.path);
CREATE INDEX observation_agent_path_pattern IF NOT EXISTS FOR (n:Observation) ON (n.agent_id, n.path_pattern);
CREATE INDEX file_path IF NOT EXISTS FOR (n:File) ON (n.path);
CREATE INDEX file_agent_exists IF NOT EXISTS FOR (n:File) ON (n.agent_id, n.exists);
CREATE INDEX decision_type IF NOT EXISTS FOR (n:Decision) ON (n.type);
CREATE INDEX decision_agent_category_type IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.category, n.observation_type);
CREATE INDEX decision_agent_type IF NOT EXISTS FOR (n:Decision) ON (n.agent_id, n.type);
CREATE INDEX pattern_key IF NOT EXISTS FOR (n:Pattern) ON (n.key);
CREATE INDEX execution_agent_success IF NOT EXISTS FOR (n:Execution) ON (n.agent_id, n.success);
CREATE INDEX goal_agent_completed IF NOT EXISTS FOR (n:Goal) ON (n.agent_id, n.completed_at);
CREATE INDEX censor_agent_status IF NOT EXISTS FOR (n:Censor) ON (n.agent_id, n.status);
CREATE INDEX escalation_agent_status IF NOT EXISTS FOR (n:Escalation) ON (n.agent_id, n.status);
CREATE INDEX episode_agent_session IF NOT EXISTS FOR (n:Episode) ON (n.agent_id, n.session_id);
CREATE INDEX event_agent_type IF NOT EXISTS FOR (n:Event) ON (n.agent_id, n.type);
CREATE INDEX desire_agent_status IF NOT EXISTS FOR (n:Desire) ON (n.agent_id, n.status);
CREATE INDEX heuristic_agent_status IF NOT EXISTS FOR (n:Heuristic) ON (n.agent_id, n.status);
CREATE INDEX heuristic_agent_domain IF NOT EXISTS FOR (n:Heuristic) ON (n.agent_id, n.domain);
CREATE INDEX trajectory_agent_domain IF NOT EXISTS FOR (n:Trajectory) ON (n.agent_id, n.domain);
