"""The memory of Nous: settings, Neo4j, schema, node models, queries, the watcher.

``graph`` imports nothing else of Nous; ``graph.daemon`` hands over to
``scheduler``, the composition root.
"""
