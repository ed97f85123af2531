// purpose: retire notes (the pruner's verdicts, or a verified pass that contradicts them):
//   status retired, when and why; nothing is deleted, so provenance stays whole
// params: $agent_id, $rows ([{id, reason}]), $now (datetime)
// returns: id of each note retired
// mode: write
UNWIND $rows AS row
MATCH (n:CodeNote {id: row.id})
WHERE n.agent_id = $agent_id AND n.status = "active"
SET n.status = "retired", n.retired_at = $now, n.retire_reason = row.reason
RETURN n.id AS id
