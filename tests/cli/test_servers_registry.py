"""`hintgate servers add NAME --registry SERVER`: a running gateway gets the entry a registry's server.json becomes."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client
from tests.configs import entry

from hintgate.testing import RunningGateway, running_gateway
from registry_peer import MEMORY, WEATHER, RegistryPeer, running_registry

pytestmark = pytest.mark.anyio


@pytest.fixture
def peer() -> Iterator[RegistryPeer]:
    with running_registry() as running:
        yield running


@contextmanager
def gateway(tmp_path: Path, time_cmd: list[str], **env: str) -> Iterator[RunningGateway]:
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {"time": entry(time_cmd)}, "policy": {"mode": "bypass"}}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data"), **env}
    with running_gateway("--config", str(config), "--db", f"sqlite:///{tmp_path / 'store.db'}", env=env) as running:
        yield running


async def add(running: RunningGateway, tmp_path: Path, *args: str) -> tuple[int, str]:
    env = {**os.environ, "HINTGATE_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100"}
    argv = [sys.executable, "-m", "hintgate", "servers", "add", "--url", running.base_url, *args]
    with anyio.fail_after(180):
        result = await anyio.run_process(argv, env=env, check=False)
    return result.returncode, (result.stdout + result.stderr).decode()


async def test_a_remote_is_added_with_its_secret_read_from_the_gateways_environment(
    tmp_path: Path, time_cmd: list[str], peer: RegistryPeer
) -> None:
    with gateway(tmp_path, time_cmd) as running:
        code, output = await add(running, tmp_path, "weather", "--registry", WEATHER, "--registry-url", peer.url)
        assert code == 2
        assert "environment variable X_API_KEY is not set" in output  # the gateway's reader says so; nothing added
    with gateway(tmp_path, time_cmd, X_API_KEY="k-123") as running:
        code, output = await add(running, tmp_path, "weather", "--registry", WEATHER, "--registry-url", peer.url)
        assert code == 0, output
        assert "added server 'weather'" in output
        assert "${X_API_KEY}  header X-API-Key, required, secret" in output
        async with httpx.AsyncClient(base_url=running.base_url, headers=running.headers, timeout=30) as api:
            server = (await api.get("/api/servers/weather")).json()
    assert server["origin"] == "runtime"
    assert server["trust"] == "untrusted"  # reached by URL
    assert server["config"]["transport"]["url"] == "https://weather.example/eu/mcp"
    assert server["config"]["transport"]["headers"] == {"X-API-Key": "***", "X-Units": "***"}
    assert "k-123" not in json.dumps(server)


@pytest.mark.timeout(240)
async def test_an_npm_package_is_added_pinned_at_its_version_and_serves_its_tools(
    tmp_path: Path, time_cmd: list[str], peer: RegistryPeer
) -> None:
    # The gateway starts it the way the entry says, `npx -y @modelcontextprotocol/server-memory@VERSION`:
    # npx fetches it from npm once (about 15 s) into this test's own npm cache.
    version = peer.servers[MEMORY]["version"]
    with gateway(tmp_path, time_cmd) as running:
        code, output = await add(
            running, tmp_path, "memory", "--registry", MEMORY, "--registry-url", peer.url, "--prefix", "mem"
        )
        assert code == 0, output
        assert "added server 'memory': up, 9 tools" in output
        async with httpx.AsyncClient(base_url=running.base_url, headers=running.headers, timeout=30) as api:
            server = (await api.get("/api/servers/memory")).json()
        async with Client(running.mcp_transport(), mode="legacy") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            async with httpx.AsyncClient(base_url=running.base_url, headers=running.headers, timeout=30) as api:
                pins = (await api.get("/api/pins", params={"server": "memory"})).json()
    assert server["config"]["transport"]["command"] == "npx"
    assert server["config"]["transport"]["args"] == ["-y", f"@modelcontextprotocol/server-memory@{version}"]
    assert server["trust"] == "local"
    assert "mem_read_graph" in names
    assert "mem_delete_entities" in names
    assert {p["state"] for p in pins} == {"accepted"}  # pinned at first sight
    assert len(pins) == 9


async def test_registry_options_go_only_with_registry_and_a_deleted_server_is_not_added(
    tmp_path: Path, time_cmd: list[str], peer: RegistryPeer
) -> None:
    peer.statuses[WEATHER] = "deleted"
    with gateway(tmp_path, time_cmd) as running:
        code, output = await add(running, tmp_path, "x", "--use", "package:0", "--", "uvx", "mcp-server-time")
        assert code == 2
        assert "--use, --remote and --registry-url go with --registry SERVER" in output
        code, output = await add(running, tmp_path, "w", "--registry", WEATHER, "--registry-url", peer.url)
        assert code == 2
        assert f"{WEATHER}: the registry at {peer.url} marks it deleted; not added" in output
