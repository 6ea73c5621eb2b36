"""A person everywhere: sessions and calls record who made them, and a session answers only its owner.

`hintgate serve --http` with an `identity` section naming a real OpenID provider (npm `oidc-provider`),
recording to SQLite; two people (alice in readers, bob in devs) use it through the MCP Python SDK.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[RunningGateway]:
    port = free_port()
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"demo": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp",
                     "auditors": {"group": "dba"}},
    }))  # fmt: skip
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as running:
        yield running


@asynccontextmanager
async def client_of(token: str, url: str, mode: str, name: str = "agent") -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http,
        Client(
            streamable_http_client(url, http_client=http),  # type: ignore[arg-type]
            mode=mode,  # type: ignore[arg-type]
            client_info=types.Implementation(name=name, version="1.0"),
        ) as client,
    ):
        yield client


def hintgate(*args: str) -> Any:
    done = subprocess.run(
        [sys.executable, "-m", "hintgate", *args, "--format", "json"],
        check=False, capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_sessions_and_calls_record_the_person_and_the_cli_filters_by_person(
    issuer: OidcIssuer, gateway: RunningGateway, mode: str
) -> None:
    url = gateway.mcp_url
    for person in ("alice", "bob"):
        # The same declared client name: on the connectionless era only the person tells their sessions apart.
        async with client_of(issuer.token(person, url), url, mode) as client:
            result = await client.call_tool("demo_search_notes", {"query": person})
            assert not result.is_error
    alice_calls = hintgate("calls", "--user", "alice@example.com")
    bob_sessions = hintgate("sessions", "--user", "bob@example.com")
    everyone = hintgate("sessions")
    assert [(c["tool_name"], c["user_name"], c["arguments"]) for c in alice_calls] == [
        ("demo_search_notes", "alice@example.com", {"query": "alice"})
    ]
    assert [s["user_name"] for s in bob_sessions] == ["bob@example.com"]
    assert {s["user_name"] for s in everyone} == {"alice@example.com", "bob@example.com"}
    assert bob_sessions[0]["id"] != alice_calls[0]["session_id"]


async def test_a_session_answers_only_the_person_who_opened_it(issuer: OidcIssuer, gateway: RunningGateway) -> None:
    url = gateway.mcp_url
    alice = {**HEADERS, "Authorization": f"Bearer {issuer.token('alice', url)}"}
    bob = {**HEADERS, "Authorization": f"Bearer {issuer.token('bob', url)}"}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "a", "version": "1"}}}  # fmt: skip
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    async with httpx.AsyncClient(timeout=30) as http:
        opened = await http.post(url, headers=alice, json=initialize)
        session = opened.headers["mcp-session-id"]
        version = {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await http.post(url, headers={**alice, **version}, json=done)).status_code == 202
        stolen_post = await http.post(url, headers={**bob, **version}, json=listing)
        # Only the head is read (each request is bounded by the client's timeout): a stream opened to the
        # wrong person never ends, and the test would fail by pytest's timeout instead of saying what went wrong.
        async with http.stream("GET", url, headers={**bob, **version, "Accept": "text/event-stream"}) as stolen_stream:
            pass
        stolen_end = await http.delete(url, headers={**bob, **version})
        made_up = await http.post(url, headers={**alice, **version, "mcp-session-id": "not-handed-out"}, json=listing)
        own = await http.post(url, headers={**alice, **version}, json=listing)
    assert (stolen_post.status_code, stolen_stream.status_code, stolen_end.status_code) == (404, 404, 404)
    assert made_up.status_code == 404
    assert own.status_code == 200, own.text
    assert "demo_search_notes" in own.text


async def test_the_dashboard_shows_whose_each_session_and_call_is_and_one_persons_view(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    from bs4 import BeautifulSoup

    url = gateway.mcp_url
    for person in ("alice", "bob"):
        async with client_of(issuer.token(person, url), url, "legacy") as client:
            assert not (await client.call_tool("demo_search_notes", {"query": person})).is_error
    # carol, an auditor (identity.auditors: group dba), looks at everyone's sessions in the dashboard.
    carol = {"Authorization": f"Bearer {issuer.token('carol', url)}"}
    async with httpx.AsyncClient(base_url=gateway.base_url, headers=carol, timeout=30) as http:
        pages = {
            path: BeautifulSoup((await http.get(path)).text, "html.parser")
            for path in ("/sessions", "/sessions?user=bob@example.com", "/calls?user=alice@example.com")
        }
    everyone, bobs, alices_calls = pages.values()
    people = {a.get_text(strip=True): a["href"] for a in everyone.select('td[data-label="Person"] a.person')}
    assert people == {
        "alice@example.com": "/sessions?user=alice%40example.com",
        "bob@example.com": "/sessions?user=bob%40example.com",
    }
    assert [a.get_text(strip=True) for a in bobs.select('td[data-label="Person"] a')] == ["bob@example.com"]
    notice = bobs.select_one(".user-filter")
    assert notice is not None
    assert {a.get_text(strip=True): a["href"] for a in notice.select("a")} == {
        "Their calls": "/calls?user=bob%40example.com",
        "Show everyone's": "/sessions",
    }
    shown = [a.get_text(strip=True) for a in alices_calls.select("tr.call a.person")]
    assert shown == ["by alice@example.com"]
