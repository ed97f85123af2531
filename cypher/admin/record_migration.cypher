// purpose: record that a schema migration file was applied (idempotent)
// params: $name (string, the file name without .cypher), $checksum (sha256 of the file)
// returns: name
MERGE (m:Migration {name: $name})
ON CREATE SET m.id = $name, m.applied_at = datetime(), m.checksum = $checksum
RETURN m.name AS name
