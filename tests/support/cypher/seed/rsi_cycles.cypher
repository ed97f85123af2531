// purpose: test fixture: RSICycle nodes with their counts, as part 1's engine records them
// params: $agent_id, $rows (maps of RSICycle properties: id, at, processed, accepted …)
// returns: id per cycle
UNWIND $rows AS row
CREATE (c:RSICycle)
SET c = row, c.agent_id = $agent_id
RETURN c.id AS id
