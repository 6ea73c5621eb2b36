"""A server that lists 10,000 tools and keeps changing them does not stop the gateway serving others.

A real `hintgate serve --http` recording to SQLite, over the hostile fixture
tests/fixtures/many_tools_server.py (every tool in one page; once the test
calls `flip`, all of them changed and `list_changed` sent every 2 seconds). `/api/health` is probed
meanwhile; no timing is asserted beyond a generous bound per probe.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "many_tools_server.py"
PROBE_BOUND = 10.0  # seconds each probe may take: generous, a frozen gateway takes minutes
PROBES = 40


def held(tools: list[Any]) -> int:
    """How many tools are served held: listed again with a changed definition, which waits for an operator."""
    return sum(1 for t in tools if "hintgate/held" in (t.meta or {}))


@pytest.mark.timeout(300)  # a start with 10,000 tools listed, on a loaded machine
async def test_a_server_listing_ten_thousand_changing_tools_has_a_thousand_served_and_health_answers_meanwhile(
    tmp_path: Path,
) -> None:
    config = tmp_path / "hintgate.json"
    many = {"command": sys.executable, "args": [str(FIXTURE), "--tools", "10000", "--flip-every", "2"]}
    config.write_text(json.dumps({"mcpServers": {"many": many}, "policy": {"mode": "bypass"}}))
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    with running_gateway("--config", str(config), "--db", db, startup_timeout=120) as gateway, anyio.fail_after(170):
        async with (
            Client(gateway.mcp_transport(), mode="legacy") as client,
            httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers) as http,
        ):
            first = held(await _all_tools(client))
            await client.call_tool("many_flip", {})  # from now on every tool changes every 2 s
            answered = []
            for _ in range(PROBES):
                # Every probe answered within the bound while the server's tools change under the gateway.
                probe = await http.get("/api/health", timeout=PROBE_BOUND)
                answered.append(probe.status_code)
                await anyio.sleep(0.25)  # the probes' pace: nothing is synchronised on it
            tools = await _all_tools(client)
            servers = (await http.get("/api/servers", timeout=PROBE_BOUND)).json()
    assert answered == [200] * PROBES
    # The tools were listed again, changed, while the probes were answered: their pins hold them now.
    assert first == 0
    assert held(tools) == 999  # all but `flip`, whose definition never changes
    served = [t for t in tools if t.name.startswith("many_")]
    assert len(served) == 1000
    [row] = [s for s in servers if s["name"] == "many"]
    assert any("lists 10,000 tools, more than the 1,000 served per server" in p for p in row["listing_problems"])


async def _all_tools(client: Client) -> list[Any]:
    page = await client.list_tools()
    tools = list(page.tools)
    while page.next_cursor:
        page = await client.list_tools(cursor=page.next_cursor)
        tools += page.tools
    return tools
