// purpose: the reasoning steps of one decision in order, with who produced each and at what cost
// params: $agent_id, $decision_id
// returns: order, name, reasoner, model, input_summary, reasoning, confidence_delta, latency_ms,
//   tokens, error, output (JSON text), call_id (the LLM request the step came from); one
//   row per step
// mode: read
MATCH (d:Decision {id: $decision_id})-[h:HAS_STEP]->(s:ReasoningStep)
WHERE d.agent_id = $agent_id
RETURN h.order AS order, s.name AS name, s.reasoner AS reasoner, s.model AS model,
       s.input_summary AS input_summary, s.reasoning AS reasoning,
       s.confidence_delta AS confidence_delta, s.latency_ms AS latency_ms, s.tokens AS tokens,
       s.error AS error, s.output AS output, s.call_id AS call_id
ORDER BY h.order
