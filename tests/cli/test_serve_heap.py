"""What `hintgate serve` built to start is kept out of the garbage collector's passes once it serves."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest
from anyio.abc import Process
from mcp import Client

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

# `python -m hintgate ARGS...`, writing as it exits how many objects the collector leaves out of its passes,
# whether the store's tables are still in them, how many scan warm-ups it started and, once they ended, how many
# of the scan's patterns were still to compile.
SERVE_AND_REPORT_FROZEN = textwrap.dedent(
    """
    import atexit, gc, json, runpy, sys
    import hintgate.cli.serve as serve

    reported = sys.argv.pop(1)
    warm_ups = []
    start_scan_warmup = serve.start_scan_warmup

    def recorded():
        warm_ups.append(start_scan_warmup())
        return warm_ups[-1]

    serve.start_scan_warmup = recorded

    def write_report():
        from hintgate.scan.deferred import pending
        from hintgate.store.tables import tool_calls

        for thread in warm_ups:
            thread.join()
        walked = {id(o) for o in gc.get_objects()}
        with open(reported, "w") as out:
            report = {"frozen": gc.get_freeze_count(), "tables_walked": id(tool_calls) in walked}
            warmed = {"warm_ups": len(warm_ups), "pending": len(pending())}
            json.dump({**report, "collecting": gc.isenabled(), **warmed}, out)

    atexit.register(write_report)
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)


# `python -m hintgate ARGS...`, writing as it exits whether the result scan's RE2 sets were built (no result was
# scanned: only a start builds them).
SERVE_AND_REPORT_SCAN_BUILT = textwrap.dedent(
    """
    import atexit, json, runpy, sys

    reported = sys.argv.pop(1)

    def write_report():
        from hintgate.scan.prefilter import seen
        from hintgate.scan.reading import ROT13_WORDS

        with open(reported, "w") as out:
            json.dump({"built": seen("plain words", words=ROT13_WORDS) is not None}, out)

    atexit.register(write_report)
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)

# Frees 60 MB of mid-sized blocks below a live one (so the heap's top cannot shrink), gives the freed heap back,
# and prints the resident memory before and after, in bytes.
FREE_AND_GIVE_BACK = textwrap.dedent(
    """
    import os
    from hintgate.cli.serve import give_back_freed_heap

    def resident():
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    blocks = [bytes(1000 + i % 7) for i in range(60_000)]
    live = bytes(2000)
    del blocks
    before = resident()
    give_back_freed_heap()
    print(before, resident(), len(live))
    """
)


def time_config(tmp_path: Path, time_cmd: list[str]) -> Path:
    """A config serving the time server, trusted."""
    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    return config


async def test_a_listening_gateway_keeps_what_it_built_to_start_out_of_the_collectors_passes_and_collects_again(
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
    seen = json.loads(report.read_text())
    # The modules, the SDK's models and the scan's phrases alone are tens of thousands of objects.
    assert seen["frozen"] > 10_000
    assert seen["collecting"] is True  # `serve` starts with the collector off: on again once it listens
    # The result scan was warmed up on a thread of its own: no pattern is left for a result to compile on the loop.
    assert (seen["warm_ups"], seen["pending"]) == (1, 0)


async def stdio_report(tmp_path: Path, time_cmd: list[str], *args: str) -> dict[str, Any]:
    """What a stdio gateway serving the time server (`args` added to `serve`) reported as it exited after one call
    and its first listing.

    The test owns the gateway's process: it closes its stdin and waits for it to exit. The SDK's stdio client
    would SIGTERM it 2 s after closing its stdin, then SIGKILL it 2 s later, and under load (10+ on 2 cores) a
    gateway still stopping its upstream then died before its report was written.
    """
    config = time_config(tmp_path, time_cmd)
    report = tmp_path / "report.json"
    command = [sys.executable, "-c", SERVE_AND_REPORT_FROZEN, str(report), "serve", "--config", str(config), *args]
    env = {**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "HOME": str(tmp_path)}
    buffer = bytearray()
    with anyio.fail_after(90):
        async with await anyio.open_process(command, env=env, cwd=tmp_path, stderr=None) as process:
            client = {"name": "heap", "version": "1"}
            hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client}
            await send(process, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
            await receive(process, buffer, 1)
            await send(process, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            arguments = {"timezone": "UTC"}
            call = {"name": "time_get_current_time", "arguments": arguments}
            await send(process, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call})
            answer = await receive(process, buffer, 2)
            assert not answer["result"].get("isError"), answer
            await send(process, {"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
            assert (await receive(process, buffer, 3))["result"]["tools"]
            await process.stdin.aclose()  # the client leaves: the gateway stops, writing its report as it exits
            assert await process.wait() == 0
    return dict(json.loads(report.read_text()))


async def send(process: Process, message: dict[str, Any]) -> None:
    """Write one JSON-RPC message to the gateway's stdin."""
    assert process.stdin is not None
    await process.stdin.send(json.dumps(message).encode() + b"\n")


async def receive(process: Process, buffer: bytearray, request_id: int) -> dict[str, Any]:
    """The gateway's answer to request `request_id` (messages before it are passed over)."""
    assert process.stdout is not None
    while True:
        while b"\n" in buffer:
            line, _, rest = bytes(buffer).partition(b"\n")
            buffer[:] = rest
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == request_id:
                return message
        buffer.extend(await process.stdout.receive())


async def test_a_stdio_gateway_keeps_what_it_built_to_start_and_its_store_once_open_out_of_the_collectors_passes(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    seen = await stdio_report(tmp_path, time_cmd, "--db", "calls.db")
    assert seen["frozen"] > 10_000
    # The store opened after the first listing (its state was read ahead): its tables were set aside then.
    assert seen["tables_walked"] is False
    assert seen["collecting"] is True  # `serve` starts with the collector off: on again once the store opened
    assert (seen["warm_ups"], seen["pending"]) == (1, 0)  # once the store opened, after the first listing


async def test_a_stdio_gateway_without_a_store_collects_again_once_it_answered_its_first_listing(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    seen = await stdio_report(tmp_path, time_cmd, "--no-record")
    assert seen["frozen"] > 10_000
    assert seen["collecting"] is True
    assert (seen["warm_ups"], seen["pending"]) == (1, 0)  # once the first listing was written


async def test_an_http_gateway_builds_the_result_scan_before_its_first_result(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    # Built at the first result, the scan's sets and what their build needs came on top of all the gateway holds.
    config = time_config(tmp_path, time_cmd)
    report = tmp_path / "report.json"
    launcher = [sys.executable, "-c", SERVE_AND_REPORT_SCAN_BUILT, str(report)]
    with running_gateway("--config", str(config), "--no-record", launcher=launcher) as gateway:
        gateway.process.send_signal(signal.SIGTERM)
        assert gateway.process.wait(timeout=30) == 0
    assert json.loads(report.read_text()) == {"built": True}


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads resident memory from /proc")
def test_heap_freed_at_start_up_is_given_back_to_the_system() -> None:
    command = [sys.executable, "-c", FREE_AND_GIVE_BACK]
    answer = subprocess.run(command, check=True, capture_output=True, text=True, timeout=60)
    before, after, _ = (int(word) for word in answer.stdout.split())
    assert before - after > 30 * 2**20, answer.stdout


# In a fresh process: how many of the scan's and the hints' deferred patterns are compiled before and after
# `prepare_first_listing`, and which wire models have their validators built after it (and the MCP face's model of
# `tools/resolve` made).
PREPARE_AND_REPORT = textwrap.dedent(
    """
    import json
    import hintgate.scan.deferred as deferred

    made = []
    make = deferred.Deferred.__init__

    def counted(self, *args):
        made.append(self)
        make(self, *args)

    deferred.Deferred.__init__ = counted
    from hintgate.server.sdk import defer_wire_validators

    defer_wire_validators()
    import mcp_types._v2025_11_25 as handshake
    import mcp_types._v2026_07_28 as modern
    from mcp_types import methods
    from hintgate.cli.serve import prepare_first_listing
    from hintgate.server.resolution import resolve_params_model

    def compiled():
        return sum("search" in pattern.__dict__ for pattern in made)

    before = compiled()
    prepare_first_listing()
    print(json.dumps({
        "made": len(made),
        "before": before,
        "after": compiled(),
        "initialize": handshake.InitializeRequest.__pydantic_complete__,
        "initialize_answer": methods._adapter(handshake.InitializeResult).pydantic_complete,
        "modern_listing": modern.ListToolsRequest.__pydantic_complete__,
        "resolve_model": resolve_params_model.cache_info().currsize,
    }))
    """
)


def test_what_a_first_listing_uses_is_made_ready_ahead_and_nothing_of_the_other_protocol_era() -> None:
    answer = subprocess.run(
        [sys.executable, "-c", PREPARE_AND_REPORT], check=True, capture_output=True, text=True, timeout=120
    )
    seen = json.loads(answer.stdout)
    assert seen["before"] == 0  # importing compiles none of them
    assert 0 < seen["after"] < seen["made"]  # a plain definition's resolution and scan reach some, not all
    assert seen["initialize"] is True  # a handshake-era client's first message is checked without a build
    assert seen["initialize_answer"] is True  # and the answer to it shaped without one
    assert seen["resolve_model"] == 1  # the MCP face's model of tools/resolve is made already
    assert seen["modern_listing"] is False
