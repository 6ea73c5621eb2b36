"""An upstream's notifications, bounded: queued, coalesced, handled one at a time, the excess dropped and counted.

An upstream may send notifications as fast as it can write them. Handled each
in its own task, 100,000 of them held the memory of 100,000 tasks and starved
the calls of every other upstream. Here they wait in one queue per connection,
handled in order by one worker: progress of the same call keeps only the
latest report, a list change already waiting is not queued twice, and past
`limit` waiting notifications the rest are dropped, counted, and logged once
per burst with the count.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

__all__ = ["DEFAULT_LIMIT", "NotificationQueue"]

logger = logging.getLogger(__name__)

DEFAULT_LIMIT = 1000
"""Notifications that may wait per upstream connection before the rest are dropped."""

Handler = Callable[[str, dict[str, Any] | None], Awaitable[None]]


def _coalescing_key(method: str, params: dict[str, Any] | None) -> Hashable | None:
    """What a notification replaces when one with the same key waits: its call's progress, a list change."""
    if method == "notifications/progress" and params is not None and "progressToken" in params:
        token = params["progressToken"]
        return ("progress", token if isinstance(token, str | int) else repr(token))
    if method.endswith("/list_changed"):
        return (method,)
    return None


class NotificationQueue:
    """The waiting notifications of one upstream connection and the worker that handles them.

    Attributes:
        dropped: how many notifications were dropped since the queue was made.
    """

    def __init__(
        self,
        handler: Handler,
        *,
        server: str,
        limit: int = DEFAULT_LIMIT,
        on_drop: Callable[[int], None] | None = None,
    ) -> None:
        self._handler = handler
        self._server = server
        self._limit = limit
        self._on_drop = on_drop
        self._waiting: OrderedDict[Hashable, tuple[str, dict[str, Any] | None]] = OrderedDict()
        self._ready = asyncio.Event()
        self._unique = itertools.count()
        self._burst_dropped = 0
        self.dropped = 0

    def put(self, method: str, params: dict[str, Any] | None) -> None:
        """Queue a notification (never blocks): coalesced with a waiting one of its kind, or dropped when full."""
        key = _coalescing_key(method, params)
        if key is not None and key in self._waiting:
            self._waiting[key] = (method, params)  # the latest progress; the list change once
            return
        if len(self._waiting) >= self._limit:
            self._burst_dropped += 1
            self.dropped += 1
            if self._on_drop is not None:
                self._on_drop(1)
            return
        self._waiting[key if key is not None else ("one", next(self._unique))] = (method, params)
        self._ready.set()

    async def run(self) -> None:
        """Handle the notifications in order until cancelled."""
        while True:
            await self._ready.wait()
            while self._waiting:
                _, (method, params) = self._waiting.popitem(last=False)
                try:
                    await self._handler(method, params)
                except Exception:
                    logger.exception("%s: handling %s failed", self._server, method)
            self._ready.clear()
            self.report_dropped()

    def report_dropped(self) -> None:
        """Log the notifications dropped since the last report, once per burst (and when the connection ends)."""
        if self._burst_dropped:
            logger.warning(
                "%s sent notifications faster than they could be handled: %d dropped (%d waiting at most)",
                self._server,
                self._burst_dropped,
                self._limit,
            )
            self._burst_dropped = 0
