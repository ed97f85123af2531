"""Finding a Neo4j, or starting one: ``NEO4J_URI``, a server on bolt port 7687, Docker, or Neo4j
Community run from Maven Central jars with Java 17+.
"""
