// purpose: test check: set one of the agent's frames' activation words (as stored before a
//   migration, or as a person tuned them in Neo4j Browser)
// params: $agent_id, $name, $words (list of strings)
// returns: name, words (after)
MATCH (f:Frame {agent_id: $agent_id, name: $name})
SET f.activation_patterns = $words
RETURN f.name AS name, f.activation_patterns AS words
