"""The supervision every source shares: its status while it fails and once it is stopped."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from hintgate.config.loading import parse_config
from hintgate.sources import build_source
from hintgate.sources.base import SourceState

pytestmark = pytest.mark.anyio


async def test_a_source_stopped_while_restarting_reads_down_with_its_last_reason(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-server"
    config = parse_config({"mcpServers": {"bad": {"command": str(missing)}}})
    restarting = asyncio.Event()

    async def listener(name: str, what: str) -> None:
        if source.status.state is SourceState.RESTARTING:
            restarting.set()

    source = build_source(config.sources["bad"], config, environ=dict(os.environ), listener=listener)
    running = asyncio.create_task(source.run())
    try:
        async with asyncio.timeout(20):
            await restarting.wait()
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running
    status = source.status
    assert status.state is SourceState.DOWN
    assert status.retry_at is None
    assert status.reason is not None
    assert str(missing) in status.reason
