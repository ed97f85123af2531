// purpose: test fixture: Execution nodes, each EXECUTED_AS from its decision (dry_run or not)
// params: $agent_id, $rows (maps {id, at, decision_id, target, success, dry_run})
// returns: id per execution
UNWIND $rows AS row
MATCH (d:Decision {id: row.decision_id})
CREATE (e:Execution)
SET e = row, e.agent_id = $agent_id
CREATE (d)-[:EXECUTED_AS]->(e)
RETURN e.id AS id
