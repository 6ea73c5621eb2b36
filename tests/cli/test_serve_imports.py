"""What `hintgate serve --http` loads to serve: what it does not need yet is imported when it is first used."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest
from mcp import Client

pytestmark = pytest.mark.anyio

# `python -m hintgate ARGS...`, writing the names of every module it imported to a file as it exits.
SERVE_AND_LIST_MODULES = textwrap.dedent(
    """
    import atexit, json, runpy, sys

    listing = sys.argv.pop(1)

    def write_modules():
        with open(listing, "w") as out:
            json.dump(sorted(sys.modules), out)

    atexit.register(write_modules)
    runpy.run_module("hintgate", run_name="__main__", alter_sys=True)
    """
)

# Loaded with the first page of the dashboard, never by MCP clients.
DASHBOARD = ["jinja2", "hintgate.web.pages"]
# Loaded by the first scrape of /metrics.
SCRAPE = ["prometheus_client", "hintgate.observers.exposition"]
# Loaded only when recording is on.
STORE = ["sqlalchemy", "aiosqlite", "hintgate.store"]
# Never needed: nothing hintgate serves speaks WebSocket.
NEVER = ["websockets"]


@contextmanager
def serving(tmp_path: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Run `hintgate serve --http 127.0.0.1:0 ARGS...`; yield its MCP URL and process once it listens."""
    command = [sys.executable, "-c", SERVE_AND_LIST_MODULES, str(tmp_path / "modules.json")]
    process = subprocess.Popen(
        [*command, "serve", "--http", "127.0.0.1:0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    lines: queue.Queue[str | None] = queue.Queue()
    log: list[str] = []

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            log.append(line)
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 60
        url = None
        while url is None:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"hintgate serve printed no MCP URL; its log:\n{''.join(log)[-4000:]}")
            if "MCP at " in line:
                url = line.split("MCP at ", 1)[1].strip()
        yield url, process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        reader.join(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


async def modules_after_a_listing(tmp_path: Path, time_cmd: list[str], *args: str) -> set[str]:
    """The modules a gateway serving the time server had imported by the time it answered a `tools/list`."""
    config = tmp_path / "hintgate.json"
    server = {"command": time_cmd[0], "args": time_cmd[1:], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"time": server}}))
    with serving(tmp_path, "--config", str(config), *args) as (url, process):
        with anyio.fail_after(60):
            async with Client(url, mode="legacy") as client:
                listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == {"time_get_current_time", "time_convert_time"}
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    return set(json.loads((tmp_path / "modules.json").read_text()))


def loaded(modules: set[str], packages: list[str]) -> list[str]:
    """The modules of `packages` (each with its submodules) among `modules`."""
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in packages))


async def test_serving_without_recording_imports_neither_the_store_nor_the_dashboard(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    modules = await modules_after_a_listing(tmp_path, time_cmd, "--no-record")
    assert "hintgate.server.gateway" in modules
    assert loaded(modules, STORE) == []
    assert loaded(modules, DASHBOARD) == []
    assert loaded(modules, SCRAPE) == []
    assert loaded(modules, NEVER) == []


async def test_serving_with_recording_to_sqlite_imports_the_store_but_not_the_dashboard_nor_postgresql(
    tmp_path: Path, time_cmd: list[str]
) -> None:
    modules = await modules_after_a_listing(tmp_path, time_cmd, "--db", f"sqlite:///{tmp_path / 'calls.db'}")
    assert "hintgate.store" in modules
    assert "aiosqlite" in modules
    assert loaded(modules, DASHBOARD) == []
    assert loaded(modules, SCRAPE) == []
    assert loaded(modules, ["sqlalchemy.dialects.postgresql", "asyncpg"]) == []
    assert loaded(modules, NEVER) == []
