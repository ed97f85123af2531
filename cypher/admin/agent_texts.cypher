// purpose: every text property of one agent's nodes (strings and lists of strings), for a
//   person or a test to look for what must not be there (a secret: docs/operations.md)
// params: $agent_id
// returns: label, id, key, value (a string or a list of strings), one row per property
// mode: read
MATCH (n)
WHERE n.agent_id = $agent_id
UNWIND keys(n) AS key
WITH n, key, n[key] AS value
WHERE value IS :: STRING OR value IS :: LIST<STRING NOT NULL>
RETURN labels(n)[0] AS label, n.id AS id, key, value
