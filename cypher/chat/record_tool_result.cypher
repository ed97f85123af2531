// purpose: append one tool call's result (a JSON object as text) to the session's open turn,
//   keeping at most $keep results; past that, the oldest successful results are dropped first
//   (errors are what the assessment and the censors learn from), and only when every kept
//   result is an error the oldest error goes. tool_failed runs beside tool_results (one boolean
//   per kept result); tool_calls counts every call of the turn, tool_results_dropped those not
//   kept (a turn opened before these properties existed counts its list, and its older results
//   count as successes). One statement per hook; the list it rewrites stays at most $keep long.
// params: $agent_id, $session_id, $result (string: the ToolResult as JSON), $failed (boolean,
//   true when the call failed), $keep (integer >= 1, the most results a turn keeps)
// returns: id (the turn's id), tool_results (how many it now holds), tool_calls (how many it
//   saw), dropped (how many it did not keep); no row without an open turn
MATCH (t:Turn {agent_id: $agent_id, session_id: $session_id, status: "open"})
WITH t ORDER BY t.at DESC LIMIT 1
WITH t, coalesce(t.tool_results, []) AS before
WITH t, before + [$result] AS results,
     coalesce(t.tool_failed, [r IN before | false]) + [$failed] AS failed,
     coalesce(t.tool_calls, size(before)) + 1 AS calls
WITH t, results, failed, calls, range(0, size(results) - 1) AS places
// The order of dropping: successes oldest first, then errors oldest first.
WITH t, results, failed, calls, places,
     [i IN places WHERE NOT failed[i]] + [i IN places WHERE failed[i]] AS drop_order,
     size(results) - $keep AS excess
WITH t, results, failed, calls, places,
     CASE WHEN excess > 0 THEN drop_order[0..excess] ELSE [] END AS dropped
WITH t, results, failed, calls, dropped, [i IN places WHERE NOT i IN dropped] AS kept
SET t.tool_results = [i IN kept | results[i]],
    t.tool_failed = [i IN kept | failed[i]],
    t.tool_calls = calls,
    t.tool_results_dropped = coalesce(t.tool_results_dropped, 0) + size(dropped)
RETURN t.id AS id, size(kept) AS tool_results, calls AS tool_calls,
       t.tool_results_dropped AS dropped
