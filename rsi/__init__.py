"""Recursive self-improvement: reflection, desires, practice, heuristics (not built yet)."""
