// purpose: make the goals from the settings Goal nodes (by description); goals no longer in the
//   settings are left alone (completing one is a person's call)
// params: $agent_id, $rows: list of maps {id, description, priority, at}
// returns: id per goal
UNWIND $rows AS row
MERGE (g:Goal {agent_id: $agent_id, description: row.description})
  ON CREATE SET g.id = row.id, g.at = row.at
SET g.priority = row.priority
RETURN g.id AS id
