"""Ending the store's tasks within a deadline: one that outlives its cancellation is named and left behind."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import anyio
import pytest

from hintgate.store.stopping import ended_within, stop_task

pytestmark = pytest.mark.anyio


async def deaf_to_cancellation(released: asyncio.Event) -> None:
    """Waits until `released`, whatever cancels it meanwhile (as a driver awaiting a server's acknowledgement)."""
    while not released.is_set():
        with contextlib.suppress(asyncio.CancelledError):
            await released.wait()


async def test_a_task_that_ends_when_cancelled_is_stopped_and_said_to_have_ended() -> None:
    task = asyncio.get_running_loop().create_task(asyncio.Event().wait(), name="listener")
    await asyncio.sleep(0)
    with anyio.fail_after(10):
        assert await stop_task(task, within=5) is True
    assert task.cancelled()


async def test_a_task_that_outlives_its_cancellation_is_named_with_where_it_waits_and_left_behind(
    caplog: pytest.LogCaptureFixture,
) -> None:
    released = asyncio.Event()
    task = asyncio.get_running_loop().create_task(deaf_to_cancellation(released), name="stuck-writer")
    await asyncio.sleep(0)
    with anyio.fail_after(10), caplog.at_level(logging.ERROR, logger="hintgate.store"):
        assert await stop_task(task, within=0.1) is False
    assert not task.done()
    message = caplog.records[-1].getMessage()
    assert "'stuck-writer' did not end within 0.1 s of being cancelled; left behind" in message
    assert "in deaf_to_cancellation" in message
    released.set()
    with anyio.fail_after(10):
        await task  # let go once its wait ends


async def test_work_that_does_not_end_in_time_is_cancelled_and_named(caplog: pytest.LogCaptureFixture) -> None:
    with anyio.fail_after(10), caplog.at_level(logging.ERROR, logger="hintgate.store"):
        assert await ended_within(asyncio.Event().wait(), 0.1, "closing the connections") is False
        assert await ended_within(asyncio.sleep(0), 5, "closing the writer") is True
    assert [r.getMessage() for r in caplog.records] == ["closing the connections did not end within 0.1 s; given up"]
