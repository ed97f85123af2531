"""Nous's Cypher, one statement a file (``<area>/<name>.cypher``), shipped as package data.

This file only makes ``cypher/`` a package, so that a wheel carries the files and
:func:`graph.store.queries.shipped_cypher` finds them through ``importlib.resources``.
"""
