// purpose: append one tool call's result (a JSON object as text) to the session's open turn
// params: $agent_id, $session_id, $result (string: the ToolResult as JSON)
// returns: id (the turn's id), tool_results (how many it now holds); no row without an open turn
MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id, status: "open"})
WITH t ORDER BY t.at DESC LIMIT 1
SET t.tool_results = coalesce(t.tool_results, []) + [$result]
RETURN t.id AS id, size(t.tool_results) AS tool_results
