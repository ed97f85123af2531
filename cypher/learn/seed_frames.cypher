// purpose: the agent's Frame nodes from the seed frames, idempotently: a frame that exists is
//   left as it is (a person may have tuned it; usage_count is never reset)
// params: $agent_id, $rows (list of maps of Frame properties: id, name, title, description,
//   activation_patterns, default_category, default_stakes, questions_to_ask, priority,
//   budget (JSON string), at)
// returns: name, created (true for a frame this call made)
UNWIND $rows AS row
MERGE (f:Frame {agent_id: $agent_id, name: row.name})
  ON CREATE SET f += row, f.usage_count = 0
RETURN f.name AS name, f.id = row.id AS created
