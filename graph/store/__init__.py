"""The memory itself: driver lifecycle, the query loader, migrations, the mapping between node
properties and models, and one store class per domain. The only package of Nous that imports
``neo4j``.
"""
