"""What every part of the store holds: its engine, the URL that names it, and connections whose errors say so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import URL

from hintgate.store import queries
from hintgate.store.async_core import AsyncConnection, AsyncEngine
from hintgate.store.engine import translated

__all__ = ["StorePart"]


class StorePart:
    """One table's (or a few tables') reads and writes in the store's database.

    A database or driver error inside `reading` or `writing` becomes a `StoreError` that names the database
    (password masked) and what was being done.

    Args:
        engine: the store's engine.
        url: its URL, to name the database in errors.
    """

    def __init__(self, engine: AsyncEngine, url: URL) -> None:
        self._engine = engine
        self._url = url

    @asynccontextmanager
    async def reading(self, doing: str) -> AsyncIterator[AsyncConnection]:
        """A connection to read on; `doing` completes "cannot … the database" in an error."""
        with translated(self._url, doing):
            async with self._engine.connect() as conn:
                yield conn

    @asynccontextmanager
    async def writing(self, doing: str) -> AsyncIterator[AsyncConnection]:
        """A connection in a write transaction (`queries.begin_write`); `doing` as in `reading`."""
        with translated(self._url, doing):
            async with queries.begin_write(self._engine) as conn:
                yield conn
