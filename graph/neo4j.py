"""``python -m graph.neo4j start|stop|status``: the README's command, kept where users expect it.

Finding or starting a Neo4j lives in :mod:`graph.server`; this module only
hands the command line over to it.
"""

from __future__ import annotations

import sys

from graph.server.finder import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
