"""The writes a keeper starts behind its changes (`hintgate.server.flushes`)."""

from __future__ import annotations

import anyio
import pytest

from hintgate.server.flushes import BackgroundFlushes


def test_a_flush_asked_with_no_loop_running_is_not_started() -> None:
    calls: list[str] = []

    async def flush() -> None:
        calls.append("flush")

    BackgroundFlushes(flush).start()
    assert calls == []


@pytest.mark.anyio
async def test_close_waits_for_the_flushes_started_whatever_they_raised_then_flushes_once_more() -> None:
    calls: list[str] = []
    release = anyio.Event()

    async def flush() -> None:
        calls.append("flush")
        if len(calls) == 1:
            await release.wait()
            raise RuntimeError("the store is down")

    flushes = BackgroundFlushes(flush)
    flushes.start()
    await anyio.sleep(0)
    assert calls == ["flush"]
    release.set()
    with anyio.fail_after(5):
        await flushes.close()
    assert calls == ["flush", "flush"]
