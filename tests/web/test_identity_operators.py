"""Being signed in makes a person a caller, not an operator: against a real `hintgate serve --http`.

The npm `oidc-provider` peer signs people in: alice is in `readers` (the rules deny her every write), bob in
`devs`, carol in `dba`. The config names no admins, as a team's config did before roles: alice tries what an
ordinary account at the company's identity provider could do to the gateway, through the REST API with her
own access token, and is refused each time with 403 naming the permission; nothing changes.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.configs import config_file, entry
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

RULES = [
    {"allow": {"group": "readers", "tier": "read-only"}},
    {"deny": {"group": "readers", "tier": ["additive", "destructive", "unknown"], "reason": "Readers only read."}},
    {"allow": {"group": "devs", "server": "notes", "tier": "additive"}},
    {"ask": {"server": "notes", "tier": "destructive", "approvers": {"group": "dba"}}},
]
MODERN = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
          "MCP-Protocol-Version": "2026-07-28"}  # fmt: skip
WRITE = {"X-Hintgate-Request": "1"}


@pytest.fixture
def gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[RunningGateway]:
    port = free_port()
    identity = {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"}
    config = config_file(tmp_path, {"notes": entry(demo_cmd, trust="trusted")}, {"rules": RULES}, identity=identity)
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as running:
        yield running


async def call(http: httpx.AsyncClient, url: str, token: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One `tools/call` over the 2026-07-28 era, as `token`'s person; the JSON-RPC result."""
    meta = {"io.modelcontextprotocol/clientInfo": {"name": "agent", "version": "1"},
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
    headers = {**MODERN, "Authorization": f"Bearer {token}", "Mcp-Method": "tools/call", "Mcp-Name": tool}
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "_meta": meta}}  # fmt: skip
    answer = await http.post(url, headers=headers, json=body)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()["result"]
    return result


def as_person(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **WRITE}


def refused_for_want_of(answer: httpx.Response, permission: str) -> bool:
    return answer.status_code == 403 and f"needs permission {permission}" in answer.json()["detail"]


async def test_a_member_cannot_read_another_persons_calls_or_sessions(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    alice, bob = issuer.token("alice", url), issuer.token("bob", url)
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:
        secret = {"title": "bob's salary review", "body": "confidential"}
        assert not (await call(http, url, bob, "notes_create_note", secret)).get("isError")
        assert not (await call(http, url, alice, "notes_list_notes", {})).get("isError")
        everything = (await http.get("/api/calls", headers=gateway.headers)).json()
        bobs_call = next(c for c in everything if c["user_name"] == "bob@example.com")
        listed = await http.get("/api/calls", headers=as_person(alice))
        named = await http.get("/api/calls", params={"user": "bob@example.com"}, headers=as_person(alice))
        one = await http.get(f"/api/calls/{bobs_call['id']}", headers=as_person(alice))
        sessions = await http.get("/api/sessions", headers=as_person(alice))
        bobs_session = await http.get(f"/api/sessions/{bobs_call['session_id']}", headers=as_person(alice))
        operators_view = await http.get(f"/api/sessions/{bobs_call['session_id']}", headers=gateway.headers)
        page = await http.get("/calls", params={"user": "bob@example.com"}, headers=as_person(alice))
        fragment = await http.get(f"/fragments/calls/{bobs_call['id']}", headers=as_person(alice))
    assert listed.status_code == 200, listed.text
    assert {c["user_name"] for c in listed.json()} == {"alice@example.com"}
    assert named.json() == []
    assert one.status_code == 404
    assert {s["user_name"] for s in sessions.json()} == {"alice@example.com"}
    assert bobs_session.status_code == 404
    assert operators_view.status_code == 200, operators_view.text
    assert [c["arguments"] for c in operators_view.json()["calls"]] == [secret]
    assert "salary" not in page.text
    assert fragment.status_code == 404
    assert "salary" not in fragment.text


async def test_a_member_cannot_override_a_destructive_tool_to_read_only_and_run_it(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    alice = issuer.token("alice", url)
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:
        created = await call(http, url, issuer.token("bob", url), "notes_create_note", {"title": "t", "body": "b"})
        note_id = json.loads(created["content"][0]["text"])["id"]
        override = await http.patch(
            "/api/tools/notes_delete_note/overrides",
            json={"readOnlyHint": True, "destructiveHint": False},
            headers=as_person(alice),
        )
        confirm = await http.put(
            "/api/tools/notes_delete_note/confirm", json={"confirm": "never"}, headers=as_person(alice)
        )
        ran = await call(http, url, alice, "notes_delete_note", {"note_id": note_id})
        tool = (await http.get("/api/tools/notes_delete_note", headers=gateway.headers)).json()
    assert refused_for_want_of(override, "gateway:operate"), override.text
    assert refused_for_want_of(confirm, "gateway:operate"), confirm.text
    assert ran.get("isError"), ran
    assert "Readers only read." in json.dumps(ran)
    assert (tool["tier"], tool["overrides"]["stored"]) == ("destructive", {})


async def test_a_member_cannot_switch_the_mode_to_bypass_for_everyone(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    alice = issuer.token("alice", gateway.mcp_url)
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:
        bypass = await http.patch("/api/policy", json={"mode": "bypass"}, headers=as_person(alice))
        loose = await http.patch(
            "/api/policy", json={"preferences": {"alwaysConfirmDestructive": False}}, headers=as_person(alice)
        )
        policy = (await http.get("/api/policy", headers=gateway.headers)).json()
    assert refused_for_want_of(bypass, "gateway:operate"), bypass.text
    assert refused_for_want_of(loose, "gateway:operate"), loose.text
    assert policy["mode"] == "default"
    assert policy["preferences"]["alwaysConfirmDestructive"] is True


async def test_a_member_cannot_add_a_server_whose_command_runs_as_the_gateway(
    issuer: OidcIssuer, gateway: RunningGateway, tmp_path: Path
) -> None:
    marker = tmp_path / "ran"
    entry = {"name": "evil", "command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}
    alice = issuer.token("alice", gateway.mcp_url)
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:
        added = await http.post("/api/servers", json=entry, headers=as_person(alice))
        servers = (await http.get("/api/servers", headers=gateway.headers)).json()
    assert refused_for_want_of(added, "gateway:operate"), added.text
    assert [s["name"] for s in servers] == ["notes"]
    assert not marker.exists()


@pytest.fixture
def team_gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[RunningGateway]:
    """The same gateway with its admins named: the group dba."""
    port = free_port()
    identity = {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp", "admins": {"group": "dba"}}
    config = config_file(tmp_path, {"notes": entry(demo_cmd, trust="trusted")}, {"rules": RULES}, identity=identity)
    with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as running:
        yield running


async def test_an_admin_changes_the_gateway_and_adds_a_url_server_but_only_the_api_token_sets_a_command(
    issuer: OidcIssuer, team_gateway: RunningGateway, tmp_path: Path
) -> None:
    gateway = team_gateway
    carol = issuer.token("carol", gateway.mcp_url)
    marker = tmp_path / "ran"
    command = {"command": sys.executable, "args": ["-c", f"open({str(marker)!r}, 'w')"]}
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:
        mode = await http.patch("/api/policy", json={"mode": "accept-edits"}, headers=as_person(carol))
        remote = await http.post(
            "/api/servers", json={"name": "docs", "url": "http://127.0.0.1:9/mcp"}, headers=as_person(carol)
        )
        stdio = await http.post("/api/servers", json={"name": "evil", **command}, headers=as_person(carol))
        edited = await http.put("/api/servers/docs", json=command, headers=as_person(carol))
        secret = await http.post(
            "/api/servers",
            json={"name": "leak", "url": "http://127.0.0.1:9/mcp", "headers": {"X-Key": "${HINTGATE_STATE_KEY}"}},
            headers=as_person(carol),
        )
        by_token = await http.post("/api/servers", json={"name": "local", **command}, headers=gateway.headers)
        policy = (await http.get("/api/policy", headers=as_person(carol))).json()
    assert mode.status_code == 200, mode.text
    assert policy["origins"]["mode"]["updated_by"] == "carol@example.com", "a change records who made it"
    assert remote.status_code == 201, remote.text
    assert remote.json()["server"]["change"]["changed_by"] == "carol@example.com"
    for refused in (stdio, edited, secret):
        assert refused_for_want_of(refused, "servers:command"), refused.text
    assert by_token.status_code == 201, by_token.text
    assert by_token.json()["server"]["change"]["changed_by"] == "api-token"


async def test_a_person_ends_their_own_sessions_of_both_eras_and_not_another_persons(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    import anyio

    url = gateway.mcp_url
    alice, bob = issuer.token("alice", url), issuer.token("bob", url)
    handshake = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                 "Authorization": f"Bearer {alice}"}  # fmt: skip
    info = {"name": "legacy", "version": "1"}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info}}  # fmt: skip
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "notes_list_notes", "arguments": {}}}  # fmt: skip
    async with httpx.AsyncClient(base_url=gateway.base_url, timeout=60) as http:
        opened = await http.post("/mcp", headers=handshake, json=initialize)
        wire = {**handshake, "mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert (await http.post("/mcp", headers=wire, json=done)).status_code == 202
        assert (await http.post("/mcp", headers=wire, json=listing)).status_code == 200
        assert not (await call(http, url, alice, "notes_list_notes", {})).get("isError")
        with anyio.fail_after(30):
            while len(mine := (await http.get("/api/sessions", headers=as_person(alice))).json()) < 2:
                await anyio.sleep(0.1)
        ids = {s["client_name"]: s["id"] for s in mine}
        page = await http.get(f"/sessions/{ids['legacy']}", headers={**as_person(alice), "Accept": "text/html"})
        by_bob = await http.delete(f"/api/sessions/{ids['legacy']}", headers=as_person(bob))
        ended = {name: await http.delete(f"/api/sessions/{sid}", headers=as_person(alice)) for name, sid in ids.items()}
        after = await http.post("/mcp", headers=wire, json=listing)
        with anyio.fail_after(30):
            while {s["status"] for s in (await http.get("/api/sessions", headers=as_person(alice))).json()} != {
                "closed"
            }:
                await anyio.sleep(0.1)
        again = await http.delete(f"/api/sessions/{ids['legacy']}", headers=as_person(alice))
    assert 'id="end-session"' in page.text, "the dashboard offers to end one's own active session"
    assert by_bob.status_code == 404, "another person's session is no session to bob"
    assert {name: answer.status_code for name, answer in ended.items()} == {"legacy": 200, "agent": 200}
    assert after.status_code == 404, "the ended handshake session's id is gone"
    assert again.status_code == 409
