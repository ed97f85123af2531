"""Self-improvement (seed 003): reflect on memory, form desires with provenance, verify them,
route them by domain, practice in a sandbox, store trajectories, crystallize heuristics that
every prompt carries as strategies, credit them by outcome, and prune the ones that go unused.

``rsi`` may import :mod:`graph` and :mod:`cognition`'s LLM client and text helpers.
"""
