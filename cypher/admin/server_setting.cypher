// purpose: one setting of the running server, as it read neo4j.conf (e.g. the transaction log retention Nous writes)
// params: $name (string: the setting's full name, e.g. 'db.tx_log.rotation.retention_policy')
// returns: name (string), value (string); no row when the server has no such setting
// mode: read
CALL dbms.listConfig($name) YIELD name, value
WITH name, value
WHERE name = $name
RETURN name, value
