"""Neo4j Browser, ready to explore: a guide generated from ``cypher/audit/``, and a style."""
