// purpose: every constraint and index in the database, for the migration tests and audits
// params: none
// returns: kind ("constraint" or "index"), name, type, labels, properties, options
// mode: read
SHOW INDEXES YIELD name, type, labelsOrTypes, properties, owningConstraint, options
RETURN CASE WHEN owningConstraint IS NULL THEN "index" ELSE "constraint" END AS kind,
       name, type, labelsOrTypes AS labels, properties, options
ORDER BY name
