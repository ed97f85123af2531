// purpose: every constraint in the database, for the migration tests and audits
// params: none
// returns: name, type, labels, properties
// mode: read
SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties
RETURN name, type, labelsOrTypes AS labels, properties
ORDER BY name
