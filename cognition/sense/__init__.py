"""Sense: classify observations, queue them by urgency, batch them, and write them to memory."""
