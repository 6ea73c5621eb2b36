"""Observers of the call pipeline: the store's recorder, metrics, tracing.

Each subscribes to `hintgate.pipeline.ToolCalls` (a `CallObserver`) and, where
it cares, to the session tracker's start and end; the call path knows none of
them.
"""
