// purpose: test check: a parameter sent and read back, as each Neo4j client packs and reads it
// params: $value
// returns: one row: value
RETURN $value AS value
