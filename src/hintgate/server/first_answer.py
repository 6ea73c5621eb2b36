"""The first answer of a start that read its stored state ahead: calls wait for the store, the listing does not.

A stdio gateway recording to a SQLite file of the current schema answers its first `tools/list` from the state
read ahead (`hintgate.stored_state`) and opens the store only once that answer is written out, or as soon as a
call needs it (every call is decided and recorded with the store open). A gateway that opens its store first is
ready from the start.
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["FirstAnswer"]


class FirstAnswer:
    """Whether the store is open yet, and when the first answer went out (or a call began to wait for it).

    Args:
        ready: whether the store is open (or there is none) from the start.
    """

    def __init__(self, *, ready: bool) -> None:
        self._ready = asyncio.Event()
        if ready:
            self._ready.set()
        self._listing_served = False
        self._answered = asyncio.Event()  # the first listing written out, or a call waiting for the store

    @property
    def ready(self) -> bool:
        """Whether the store is open (or there is none): calls run; False while a read-ahead start opens it."""
        return self._ready.is_set()

    def store_opened(self) -> None:
        """The store is open: the calls waiting for it run."""
        self._ready.set()

    async def store(self) -> None:
        """Return once the store is open; a call waiting for it lets the store open without more delay."""
        if not self._ready.is_set():
            self._answered.set()
            await self._ready.wait()

    def listing_served(self) -> None:
        """A `tools/list` was answered (its answer is on its way out)."""
        self._listing_served = True

    def answer_written(self) -> None:
        """An answer went out to the client (the first listing's, once `listing_served` was told)."""
        if self._listing_served:
            self._answered.set()

    async def written(self, grace: float) -> None:
        """Return once the first `tools/list` answer is written out, a call waits for the store, or after `grace` s.

        A start that read its stored state ahead opens the store then: its imports would hold up the answer.
        """
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(grace):
                await self._answered.wait()
