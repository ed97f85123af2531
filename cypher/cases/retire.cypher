// purpose: retire cases (the pruner's verdicts): status retired, when and why; nothing is
//   deleted, so provenance stays whole
// params: $agent_id, $rows ([{id, reason}]), $now (datetime)
// returns: id of each case retired
// mode: write
UNWIND $rows AS row
MATCH (c:Case {id: row.id})
WHERE c.agent_id = $agent_id AND c.status = "active"
SET c.status = "retired", c.retired_at = $now, c.retire_reason = row.reason
RETURN c.id AS id
