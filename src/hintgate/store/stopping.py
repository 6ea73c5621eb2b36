"""Ending the store's background tasks within a deadline: one that does not end is named and left behind.

Closing a store cancels its tasks (the notification listener, the approval poller, the recorder once its
drain ran out of time) and waits for them before it releases its connections. A cancelled task may still
wait on something outside the process: a driver that must hear the server acknowledge a cancelled query
before it lets the connection go, a server that stopped answering. Each such wait here has a deadline; a
task that outlives it is logged with its name and where it waits, and the close goes on without it,
rather than holding the close (and whoever awaits it) for as long as the server stays silent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

__all__ = ["STOP_WAIT", "ended_within", "stop_task", "where"]

logger = logging.getLogger("hintgate.store")

STOP_WAIT = 5.0
"""Seconds a closing store waits for one of its tasks to end once cancelled, and for its connections to close."""


async def stop_task(task: asyncio.Task[Any] | None, *, within: float = STOP_WAIT) -> bool:
    """Cancel `task` and wait at most `within` seconds for it to end.

    A task that does not end in time is logged (an error: its name and where it waits) and left running:
    whatever it holds is released when its wait ends, not by the close.

    Returns:
        Whether the task ended (True for None or a task already done).
    """
    if task is None:
        return True
    if not task.done():
        task.cancel()
        await asyncio.wait((task,), timeout=max(within, 0.0))
    if not task.done():
        logger.error(
            "the store's task %r did not end within %.1f s of being cancelled; left behind, waiting in %s",
            task.get_name(),
            within,
            where(task),
        )
        return False
    if not task.cancelled():
        task.exception()  # retrieved: it was logged where it was raised, if it was worth it
    return True


async def ended_within(work: Awaitable[None], within: float, what: str) -> bool:
    """Await `work` for at most `within` seconds; past that, it is cancelled and an error names `what`.

    Returns:
        Whether `work` ended in time.
    """
    try:
        async with asyncio.timeout(max(within, 0.0)):
            await work
    except TimeoutError:
        logger.error("%s did not end within %.1f s; given up", what, within)
        return False
    return True


def where(task: asyncio.Task[Any]) -> str:
    """Where `task` is suspended, as asyncio reports its stack ("file:line in function"; innermost first)."""
    frames = task.get_stack()[-3:]  # oldest first
    if not frames:
        return "an unknown place"
    return " <- ".join(
        f"{Path(f.f_code.co_filename).name}:{f.f_lineno} in {f.f_code.co_name}" for f in reversed(frames)
    )
