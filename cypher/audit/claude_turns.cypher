// purpose: the latest Claude Code turns (one per prompt, from the hooks): the session, the prompt,
//   the frame, how it went, how many tool calls it made and the decision it was for
// params: $agent_id, $limit
// returns: id, at, session_id, prompt, frame, status, outcome, tool_calls, decision_id, episode_id
// mode: read
// note: toInteger, because Neo4j Browser's :params (the guide) sends 25 as the float 25.0.
MATCH (t:Turn)
WHERE t.agent_id = $agent_id AND t.at IS NOT NULL
RETURN t.id AS id, t.at AS at, t.session_id AS session_id, t.prompt AS prompt,
       t.frame AS frame, t.status AS status, t.outcome AS outcome,
       size(coalesce(t.tool_results, [])) AS tool_calls, t.decision_id AS decision_id,
       t.episode_id AS episode_id
ORDER BY t.at DESC
LIMIT toInteger($limit)
