"""Hints: the annotation model, inference, catalog resolution and lint. Pure: no SDK, database or network."""
