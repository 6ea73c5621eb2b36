"""Many waits that end in the order they began, served by one loop timer.

Pure (standard library only). A gateway call may wait on a timer of its own:
an upstream request for its answer (`call_timeout`), a durable call for its
record's commit (`DURABLE_WAIT`). Creating and cancelling a loop timer per
call costs a heap push and pop and a handle each; waits of one length end in
the order they began, so they are kept in a queue instead and one timer,
armed for the first, serves them all. A wait that ends before the last one
queued (a shorter timeout) gets a timer of its own.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["Deadlines"]

K = TypeVar("K")


class Deadlines(Generic[K]):
    """Waits by key, each ended by `expire(key)` at its time unless `live(key)` says it ended first.

    Args:
        live: whether a key still waits (an answered request, a committed record does not).
        expire: ends a key's wait when its time has come (called only for a key still live).
    """

    __slots__ = ("_ends", "_expire", "_live", "_timer")

    def __init__(self, live: Callable[[K], bool], expire: Callable[[K], None]) -> None:
        self._live, self._expire = live, expire
        self._ends: collections.deque[tuple[float, K]] = collections.deque()
        """The keys queued with the loop time each ends, in that order."""
        self._timer: asyncio.TimerHandle | None = None
        """Armed for the first queued end while any key is queued."""

    def at(self, loop: asyncio.AbstractEventLoop, when: float, key: K) -> asyncio.TimerHandle | None:
        """End `key`'s wait at loop time `when` unless it ends first.

        Returns None when the key joined the queue; a key ending before the last one queued gets a timer of its
        own, returned for the caller to cancel once the key has ended.
        """
        ends = self._ends
        while ends and not self._live(ends[0][1]):  # ended since: forgotten
            ends.popleft()
        if ends and when < ends[-1][0]:
            return loop.call_at(when, self._end, key)
        ends.append((when, key))
        timer = self._timer
        if timer is None or timer.when() > ends[0][0]:  # none armed, or armed for a later end than the first's
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(ends[0][0], self._due, loop)
        return None

    def clear(self) -> None:
        """Forget every queued key and disarm the timer (every wait has ended some other way)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._ends.clear()

    def _end(self, key: K) -> None:
        if self._live(key):
            self._expire(key)

    def _due(self, loop: asyncio.AbstractEventLoop) -> None:
        """The first end came: end every key past its own, and arm the timer for the next."""
        self._timer = None
        ends = self._ends
        now = loop.time()
        while ends and (ends[0][0] <= now or not self._live(ends[0][1])):
            self._end(ends.popleft()[1])
        if ends:
            self._timer = loop.call_at(ends[0][0], self._due, loop)
