"""A real `hintgate serve --http` whose servers change while a real MCP client stays connected.

Through the REST API, through `hintgate servers`, and by reloading the config
file (SIGHUP, `--watch`): only the server that changed is touched, the other
upstream keeps its process (same PID), and the client hears tools/list_changed.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from tests.configs import entry

from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}


def write_config(path: Path, servers: dict[str, Any]) -> None:
    path.write_text(json.dumps({"mcpServers": servers, "policy": {"mode": "bypass"}}, indent=2))


def upstream_pids(gateway: RunningGateway) -> dict[str, int]:
    """The gateway's child processes by the server program they run (Linux /proc)."""
    found: dict[str, int] = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == gateway.process.pid:
            for program in ("mcp-server-time", "mcp-server-memory", "hintgate.demo"):
                if program in cmdline:
                    found[program] = int(proc.name)
    return found


def wait_for(condition: Any, what: str, timeout: float = 60.0) -> Any:
    """Poll `condition()` until it is truthy, at most `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def gateway_with(tmp_path: Path, servers: dict[str, Any], *flags: str) -> Iterator[tuple[RunningGateway, Path]]:
    config = tmp_path / "hintgate.json"
    write_config(config, servers)
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    db = f"sqlite:///{tmp_path / 'store.db'}"
    with running_gateway("--config", str(config), "--db", db, *flags, env=env) as gateway:
        yield gateway, config


class ListChanged:
    """Counts tools/list_changed notifications a client receives."""

    def __init__(self) -> None:
        self.count = 0
        self.event = anyio.Event()

    async def __call__(self, message: Any) -> None:
        if "tools/list_changed" in repr(message) or "ToolListChanged" in type(message).__name__:
            self.count += 1
            self.event.set()

    async def next(self) -> None:
        with anyio.fail_after(60):
            await self.event.wait()
        self.event = anyio.Event()


async def tool_names(client: Client) -> set[str]:
    return {t.name for t in (await client.list_tools(cache_mode="refresh")).tools}


async def cli(command: str, *args: str, gateway: RunningGateway, tmp_path: Path) -> tuple[int, str]:
    env = {**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100"}
    argv = [sys.executable, "-m", "hintgate", "servers", command, "--url", gateway.base_url, *args]
    result = await anyio.run_process(argv, env=env, check=False)
    return result.returncode, (result.stdout + result.stderr).decode()


async def test_servers_changed_through_the_api_and_the_cli_reach_a_connected_client(
    tmp_path: Path, time_cmd: list[str], memory_cmd: list[str], demo_cmd: list[str]
) -> None:
    memory = entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    with gateway_with(tmp_path, {"time": entry(time_cmd), "memory": memory}) as (gateway, _):
        changed = ListChanged()
        async with (
            Client(gateway.mcp_transport(), mode="legacy", message_handler=changed) as client,
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=60) as api,
        ):
            before = await tool_names(client)
            assert "time_get_current_time" in before
            assert "memory_read_graph" in before
            pids = upstream_pids(gateway)
            assert set(pids) == {"mcp-server-time", "mcp-server-memory"}

            added = await api.post("/api/servers", json={"name": "demo", **entry(demo_cmd)}, headers=WRITE)
            assert added.status_code == 201, added.text
            await changed.next()
            assert "demo_search_notes" in await tool_names(client)
            found = await client.call_tool("demo_search_notes", {"query": "x"})
            assert found.is_error is False

            disabled = await api.post("/api/servers/demo/disable", headers=WRITE)
            assert disabled.status_code == 200
            await changed.next()
            assert not any(n.startswith("demo_") for n in await tool_names(client))
            assert "hintgate.demo" not in upstream_pids(gateway)

            code, output = await cli("list", "--format", "json", gateway=gateway, tmp_path=tmp_path)
            assert code == 0, output
            listed = {s["name"]: s for s in json.loads(output)}
            assert (listed["demo"]["enabled"], listed["demo"]["origin"]) == (False, "runtime")
            assert listed["time"]["origin"] == "config"

            code, output = await cli("enable", "demo", gateway=gateway, tmp_path=tmp_path)
            assert code == 0, output
            assert "enabled server 'demo': up" in output
            await changed.next()
            assert "demo_search_notes" in await tool_names(client)

            code, output = await cli("list", gateway=gateway, tmp_path=tmp_path)
            assert code == 0, output
            assert "demo" in output
            assert "runtime" in output
            assert max(len(line) for line in output.splitlines()) <= 100

            code, output = await cli("add", "broken", "--", "", gateway=gateway, tmp_path=tmp_path)
            assert code == 2
            assert "command: must not be empty" in output

            code, output = await cli("remove", "demo", gateway=gateway, tmp_path=tmp_path)
            assert code == 0, output
            assert "removed server 'demo'" in output
            await changed.next()
            assert not any(n.startswith("demo_") for n in await tool_names(client))

            code, output = await cli("remove", "demo", gateway=gateway, tmp_path=tmp_path)
            assert code == 2
            assert "no server named" in output

            assert upstream_pids(gateway) == pids  # the config file's servers were never touched
            assert (await client.call_tool("time_get_current_time", {"timezone": "UTC"})).is_error is False


async def test_sighup_restarts_only_the_changed_server_and_a_bad_file_keeps_what_runs(
    tmp_path: Path, time_cmd: list[str], memory_cmd: list[str]
) -> None:
    memory = entry(memory_cmd, env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")})
    with gateway_with(tmp_path, {"time": entry(time_cmd), "memory": memory}) as (gateway, config):
        changed = ListChanged()
        async with Client(gateway.mcp_transport(), mode="legacy", message_handler=changed) as client:
            assert "time_get_current_time" in await tool_names(client)
            pids = upstream_pids(gateway)
            write_config(config, {"time": entry(time_cmd, prefix="clock"), "memory": memory})
            os.kill(gateway.process.pid, signal.SIGHUP)
            await changed.next()
            wait_for(lambda: any("config reloaded" in line for line in gateway.log), "the reload")
            names = await tool_names(client)
            assert "clock_get_current_time" in names
            assert "time_get_current_time" not in names
            now = upstream_pids(gateway)
            assert now["mcp-server-memory"] == pids["mcp-server-memory"]
            assert now["mcp-server-time"] != pids["mcp-server-time"]
            assert any("restarted time; 1 unchanged" in line for line in gateway.log)

            config.write_text('{"mcpServers": {"time": {"command": "x", "args": "not a list"}}}')
            os.kill(gateway.process.pid, signal.SIGHUP)
            problem = wait_for(
                lambda: next((line for line in gateway.log if "args: expected a list" in line), None), "the error"
            )
            assert f"{config}:1:" in problem
            assert any("keep running as they were" in line for line in gateway.log)
            assert await tool_names(client) == names
            assert upstream_pids(gateway) == now


async def test_watch_applies_a_changed_config_file_without_a_signal(
    tmp_path: Path, time_cmd: list[str], demo_cmd: list[str]
) -> None:
    with gateway_with(tmp_path, {"time": entry(time_cmd)}, "--watch") as (gateway, config):
        changed = ListChanged()
        async with Client(gateway.mcp_transport(), mode="legacy", message_handler=changed) as client:
            assert "demo_search_notes" not in await tool_names(client)
            pids = upstream_pids(gateway)
            write_config(config, {"time": entry(time_cmd), "demo": entry(demo_cmd)})
            await changed.next()
            wait_for(lambda: "demo_search_notes" in gateway_tools(gateway), "the new server's tools")
            assert "demo_search_notes" in await tool_names(client)
            assert upstream_pids(gateway)["mcp-server-time"] == pids["mcp-server-time"]


def gateway_tools(gateway: RunningGateway) -> set[str]:
    return {t["name"] for t in httpx.get(f"{gateway.base_url}/api/tools", headers=gateway.headers, timeout=30).json()}
