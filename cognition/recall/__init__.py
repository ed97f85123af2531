"""Recall: what memory holds about a batch of observations, gathered in one round trip."""
