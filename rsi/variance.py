"""Direction variance (seed 003 M): do recent desires point one way or many?

A similarity graph of recent desires (Jaccard similarity of their content
words, an edge where it reaches :data:`EDGE_SIMILARITY`), communities by
networkx's Louvain with a fixed seed, and the Shannon entropy of the
community sizes in bits: 0.0 when every desire is about one thing, log2(n)
when each is about something else.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import networkx as nx
from networkx.algorithms.community import louvain_communities

from rsi.problems import terms

EDGE_SIMILARITY = 0.2
LOUVAIN_SEED = 3


def direction_variance(descriptions: Sequence[str]) -> float:
    """The entropy, in bits, of the sizes of the desires' communities (0.0 for fewer than 2)."""
    words = [terms(d) for d in descriptions if d.strip()]
    if len(words) < 2:
        return 0.0
    graph = nx.Graph()
    graph.add_nodes_from(range(len(words)))
    for i in range(len(words)):
        for j in range(i + 1, len(words)):
            union = words[i] | words[j]
            similarity = len(words[i] & words[j]) / len(union) if union else 1.0
            if similarity >= EDGE_SIMILARITY:
                graph.add_edge(i, j, weight=similarity)
    communities = louvain_communities(graph, weight="weight", seed=LOUVAIN_SEED)
    total = len(words)
    entropy = -sum((len(c) / total) * math.log2(len(c) / total) for c in communities if c)
    return round(entropy + 0.0, 4)
