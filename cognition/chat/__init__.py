"""Seed 004's API for chat runtimes: ``pre_turn``, ``post_turn``, ``end_session``."""
