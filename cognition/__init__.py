"""The thinking loop of Nous: sense, frames, recall, deliberate, act, monitor, learn."""
