"""Frames: the ways of attending to an input (seed 004), their data, selection and use counts."""
