// purpose: test check: the Bolt connections Neo4j has open, with how each client introduced itself
// params: none
// returns: one row per connection: user_agent, client_address ("host:port" of the client's end)
CALL dbms.listConnections() YIELD userAgent, clientAddress
RETURN userAgent AS user_agent, clientAddress AS client_address
