// purpose: the recall benchmark's synthetic facts, one batch
// params: $agent_id, $rows (list of maps of Fact properties, agent_id included)
// returns: written (number of facts)
UNWIND $rows AS row
CREATE (f:Fact)
SET f = row
RETURN count(*) AS written
