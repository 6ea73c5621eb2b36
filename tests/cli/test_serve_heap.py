"""What `hintgate serve --http` built to start is kept out of the garbage collector's passes once it listens."""

from __future__ import annotations

import json
import signal
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from mcp import Client

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

# `python -m hintgate ARGS...`, writing how many objects the collector leaves out of its passes as it exits.
SERVE_AND_COUNT_FROZEN = textwrap.dedent(
    """
    import atexit, gc, runpy, sys

    counted = sys.argv.pop(1)

    def write_count():
        with open(counted, "w") as out:
            out.write(str(gc.get_freeze_count()))

    atexit.register(write_count)
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)


async def test_a_listening_gateway_keeps_what_it_built_to_start_out_of_the_collectors_passes(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    launcher = [sys.executable, "-c", SERVE_AND_COUNT_FROZEN, str(tmp_path / "frozen.txt")]
    with running_gateway("--config", str(config), "--no-record", launcher=launcher) as gateway:
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode="legacy") as client:
                answer = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
        assert not answer.is_error
        gateway.process.send_signal(signal.SIGTERM)
        assert gateway.process.wait(timeout=30) == 0
    # The modules, the SDK's models and the scan's phrases alone are tens of thousands of objects.
    assert int((tmp_path / "frozen.txt").read_text()) > 10_000
