"""Benchmarks: each prints a figure and a ratio against a baseline measured in the same run."""
