"""What `hintgate serve` built to start is kept out of the garbage collector's passes once it serves."""

from __future__ import annotations

import json
import signal
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

# `python -m hintgate ARGS...`, writing as it exits how many objects the collector leaves out of its passes
# and whether the store's tables are still in them.
SERVE_AND_REPORT_FROZEN = textwrap.dedent(
    """
    import atexit, gc, json, runpy, sys

    reported = sys.argv.pop(1)

    def write_report():
        from hintgate.store.tables import tool_calls

        walked = {id(o) for o in gc.get_objects()}
        with open(reported, "w") as out:
            json.dump({"frozen": gc.get_freeze_count(), "tables_walked": id(tool_calls) in walked}, out)

    atexit.register(write_report)
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)


def time_config(tmp_path: Path, time_cmd: list[str]) -> Path:
    """A config serving the time server, trusted."""
    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    return config


async def test_a_listening_gateway_keeps_what_it_built_to_start_out_of_the_collectors_passes(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    config = time_config(tmp_path, time_cmd)
    report = tmp_path / "report.json"
    launcher = [sys.executable, "-c", SERVE_AND_REPORT_FROZEN, str(report)]
    with running_gateway("--config", str(config), "--no-record", launcher=launcher) as gateway:
        with anyio.fail_after(60):
            async with Client(gateway.mcp_transport(), mode="legacy") as client:
                answer = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
        assert not answer.is_error
        gateway.process.send_signal(signal.SIGTERM)
        assert gateway.process.wait(timeout=30) == 0
    # The modules, the SDK's models and the scan's phrases alone are tens of thousands of objects.
    assert json.loads(report.read_text())["frozen"] > 10_000


async def test_a_stdio_gateway_keeps_what_it_built_to_start_and_its_store_once_open_out_of_the_collectors_passes(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    config = time_config(tmp_path, time_cmd)
    report = tmp_path / "report.json"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", SERVE_AND_REPORT_FROZEN, str(report), "serve", "--config", str(config), "--db", "calls.db"],
        env={"HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)},
        cwd=str(tmp_path),
    )
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            answer = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
        assert not answer.is_error
        while not report.exists():  # written as the gateway exits, once its client closed its stdin
            await anyio.sleep(0.05)
    seen = json.loads(report.read_text())
    assert seen["frozen"] > 10_000
    # The store opened after the first listing (its state was read ahead): its tables were set aside then.
    assert seen["tables_walked"] is False
