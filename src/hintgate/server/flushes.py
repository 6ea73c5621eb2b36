"""The writes a keeper of shared rows starts behind its changes, awaited when it closes.

A keeper of what the store shares (tool pins, scan verdicts) answers from
memory at once and writes behind: each change starts the keeper's `flush` on
the running loop, so that no change waits on the database. With no loop
running (a change made at start, or from a thread) none is started: the next
flush writes what it would have. `close` waits for the flushes started,
whatever they raised (a flush logs its own failure and keeps what it could not
write), then flushes once more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

__all__ = ["BackgroundFlushes"]


class BackgroundFlushes:
    """A keeper's flushes started in the background, and its last one at close."""

    def __init__(self, flush: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self._flush = flush
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start a flush on the running loop; with none running, the next flush writes what this one would have."""
        with contextlib.suppress(RuntimeError):  # no running loop: written at the next flush
            task = asyncio.get_running_loop().create_task(self._flush())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Wait for the flushes started, then write what is still pending."""
        for task in list(self._tasks):
            with contextlib.suppress(Exception):
                await task
        await self._flush()
