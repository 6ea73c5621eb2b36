"""PostgreSQL LISTEN/NOTIFY for the store: answers and override changes reach other replicas at once.

A write that others should hear of calls `notify` in its transaction;
PostgreSQL delivers the notification when that transaction commits. Each
store that has subscribers keeps one connection listening on hintgate's
channels, reconnecting after a loss. SQLite has no such thing: `available`
is False and readers poll.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import text

from hintgate.store.async_core import AsyncConnection, AsyncEngine
from hintgate.store.stopping import STOP_WAIT, stop_task

__all__ = ["APPROVALS", "CHANNELS", "OVERRIDES", "Notifications", "notify"]

logger = logging.getLogger(__name__)

APPROVALS = "hintgate_approvals"
"""An approval was added or settled; the payload is JSON (see `hintgate.store.approvals`)."""
OVERRIDES = "hintgate_overrides"
"""A hint or title override changed."""
CHANNELS = (APPROVALS, OVERRIDES)
_RETRY = 1.0  # seconds before listening again after the connection was lost


async def notify(conn: AsyncConnection, channel: str, payload: str = "") -> None:
    """Send a notification when the caller's transaction commits (nothing on SQLite)."""
    if conn.dialect.name == "postgresql":
        await conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": channel, "payload": payload})


class Notifications:
    """Subscribers to hintgate's channels, fed by one listening connection (PostgreSQL only).

    Attributes:
        available: whether the database delivers notifications at all.
        listening: set while the listening connection is up (a subscriber that
            missed notifications while it was down should re-read what it follows).
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self.available = engine.dialect.name == "postgresql"
        self._subscribers: dict[str, list[Callable[[str], None]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.listening = asyncio.Event()

    def subscribe(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call `callback(payload)` for every notification on `channel`; starts listening on first use.

        After `close`, nothing is heard: a late subscriber does not open a connection no one would close.
        """
        self._subscribers.setdefault(channel, []).append(callback)
        if self.available and self._task is None and not self._closed:
            self._task = asyncio.get_running_loop().create_task(self._listen(), name="store-notifications")

    def unsubscribe(self, channel: str, callback: Callable[[str], None]) -> None:
        """Stop calling `callback` for `channel`."""
        with contextlib.suppress(KeyError, ValueError):
            self._subscribers[channel].remove(callback)

    async def close(self, *, within: float = STOP_WAIT) -> None:
        """Stop listening, waiting at most `within` seconds for the listening connection to let go (`stop_task`)."""
        self._closed = True
        task, self._task = self._task, None
        await stop_task(task, within=within)

    async def _listen(self) -> None:
        while True:
            try:
                async with self._engine.connect() as conn:
                    raw = await conn.get_raw_connection()
                    driver: Any = raw.driver_connection
                    lost = asyncio.Event()
                    driver.add_termination_listener(lambda _conn, lost=lost: lost.set())
                    try:
                        for channel in CHANNELS:
                            await driver.add_listener(channel, self._dispatch)
                        self.listening.set()
                        await lost.wait()
                    finally:
                        self.listening.clear()
                        # The connection goes back to the pool: it must stop listening first.
                        await conn.invalidate()
                logger.warning("lost the store's notification connection; listening again")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                logger.warning("cannot listen for the store's notifications (%s); retrying", exc)
            await asyncio.sleep(_RETRY)

    def _dispatch(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        for callback in list(self._subscribers.get(channel, ())):
            try:
                callback(payload)
            except Exception:
                logger.exception("a store notification subscriber failed")
