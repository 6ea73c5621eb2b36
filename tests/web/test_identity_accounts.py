"""One person per account: an account that names itself like another person, or like the API token, is not them.

`hintgate serve --http` with an `identity` section naming a real OpenID provider (npm `oidc-provider`).
Besides alice, bob and carol (verified emails), the provider has accounts that try to pass for alice:
mallory (no email, her username is alice's address), eve (alice's address, not verified), and trudy,
whose username is `api-token`. Each tries what alice (or the API token) may do: use her MCP session,
answer a call only she may answer, be recorded as her.
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

import anyio
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

ALICE = "alice@example.com"
IMPOSTORS = ("mallory", "eve")
"""Accounts whose claims spell alice's address: as a chosen username, as an unverified email."""
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "a", "version": "1"}}}  # fmt: skip
LISTING = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
RULES = [
    {"allow": {"server": "notes", "tier": "additive"}},
    {"ask": {"server": "notes", "tier": "destructive", "approvers": {"user": ALICE}}},
]
"""A destructive call waits for alice, and alice only."""


@pytest.fixture
def gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[RunningGateway]:
    port = free_port()
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"},
        "policy": {"rules": RULES, "approvalTimeout": 60},
    }))  # fmt: skip
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as running:
        yield running


def bearer(token: str) -> dict[str, str]:
    return {**HEADERS, "Authorization": f"Bearer {token}"}


async def opened_session(http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> dict[str, str]:
    """A handshake-era session opened with `headers`: the headers that send requests in it."""
    opened = await http.post(url, headers=headers, json=INITIALIZE)
    assert opened.status_code == 200, opened.text
    session = {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert (await http.post(url, headers={**headers, **session}, json=done)).status_code == 202
    return session


async def test_an_account_spelling_a_persons_address_cannot_use_her_mcp_session(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    async with httpx.AsyncClient(timeout=30) as http:
        session = await opened_session(http, url, bearer(issuer.token("alice", url)))
        stolen = {
            who: await http.post(url, headers={**bearer(issuer.token(who, url)), **session}, json=LISTING)
            for who in IMPOSTORS
        }
        own = await http.post(url, headers={**bearer(issuer.token("alice", url)), **session}, json=LISTING)
    assert {who: r.status_code for who, r in stolen.items()} == dict.fromkeys(IMPOSTORS, 404)
    assert own.status_code == 200, own.text


async def test_an_account_named_api_token_cannot_use_the_api_tokens_mcp_session(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    assert gateway.token is not None
    async with httpx.AsyncClient(timeout=30) as http:
        session = await opened_session(http, url, bearer(gateway.token))
        stolen = await http.post(url, headers={**bearer(issuer.token("trudy", url)), **session}, json=LISTING)
        own = await http.post(url, headers={**bearer(gateway.token), **session}, json=LISTING)
    assert stolen.status_code == 404
    assert own.status_code == 200, own.text


@asynccontextmanager
async def client_of(token: str, url: str, mode: str) -> AsyncIterator[Client]:
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=90) as http,
        Client(
            streamable_http_client(url, http_client=http),  # type: ignore[arg-type]
            mode=mode,  # type: ignore[arg-type]
            client_info=types.Implementation(name="agent", version="1.0"),
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
async def test_calls_of_accounts_spelling_a_persons_address_are_recorded_as_themselves_never_as_her(
    issuer: OidcIssuer, gateway: RunningGateway, mode: str
) -> None:
    """The same declared client everywhere: on the 2026-07-28 era only who they are tells their sessions apart."""
    url = gateway.mcp_url
    for person in ("alice", *IMPOSTORS, "trudy"):
        async with client_of(issuer.token(person, url), url, mode) as client:
            result = await client.call_tool("notes_search_notes", {"query": person})
            assert not result.is_error, result
    calls = hintgate("calls", "--tool", "notes_search_notes")
    hers = hintgate("calls", "--user", ALICE)
    token_sessions = hintgate("sessions", "--user", "api-token")
    by_query = {c["arguments"]["query"]: (c["user_name"], c.get("user_key"), c["session_id"]) for c in calls}
    assert {q: name for q, (name, _, _) in by_query.items()} == {
        "alice": ALICE, "mallory": "mallory", "eve": "eve", "trudy": "trudy"
    }  # fmt: skip
    assert {q: key for q, (_, key, _) in by_query.items()} == {q: f"{issuer.issuer}#sub={q}" for q in by_query}
    assert len({session for _, _, session in by_query.values()}) == 4
    assert [c["arguments"]["query"] for c in hers] == ["alice"]
    assert token_sessions == []


async def test_only_the_person_an_approval_names_answers_it_not_accounts_spelling_her_address(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    results: list[Any] = []
    async with (
        client_of(issuer.token("bob", url), url, "legacy") as bob,
        httpx.AsyncClient(base_url=gateway.base_url, timeout=30) as api,
    ):
        created = await bob.call_tool("notes_create_note", {"title": "t", "body": "b"})
        assert not created.is_error, created
        note_id = json.loads(created.content[0].text)["id"]  # type: ignore[union-attr]

        async def delete() -> None:
            results.append(await bob.call_tool("notes_delete_note", {"note_id": note_id}))

        async def answer(person: str, approval: str) -> httpx.Response:
            return await api.post(
                f"/api/approvals/{approval}",
                headers={"Authorization": f"Bearer {issuer.token(person, url)}"},
                json={"answer": "approve-once"},
            )

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(delete)
            alice = {"Authorization": f"Bearer {issuer.token('alice', url)}"}
            with anyio.fail_after(30):  # bounded: the call reaches the queue in well under a second
                while not (waiting := (await api.get("/api/approvals", headers=alice)).json()):
                    await anyio.sleep(0.05)
            [approval] = waiting
            assert approval["approvers"] == f"user {ALICE}"
            refused = {who: await answer(who, approval["id"]) for who in (*IMPOSTORS, "trudy")}
            by_alice = await answer("alice", approval["id"])
    assert {who: r.status_code for who, r in refused.items()} == dict.fromkeys((*IMPOSTORS, "trudy"), 403)
    assert "only user alice@example.com may answer this call, not mallory" in refused["mallory"].json()["detail"]
    assert by_alice.status_code == 200, by_alice.text
    [deleted] = results
    assert not deleted.is_error, deleted
    [record] = hintgate("calls", "--tool", "notes_delete_note")
    assert (record["user_name"], record["decision"]["approver"]) == ("bob@example.com", ALICE)
