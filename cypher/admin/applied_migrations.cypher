// purpose: names of the schema migrations already applied to this database
// params: none
// returns: name (string), applied_at (datetime), one row per Migration node
// mode: read
MATCH (m:Migration)
RETURN m.name AS name, m.applied_at AS applied_at
ORDER BY m.name
