"""Roles by hint tier: rules naming groups, against a real OpenID provider and `hintgate serve`.

alice is in `readers` (read-only tools of every server and nothing else), bob in `devs` (additive writes of
the notes server unasked); the demo server's notes tools span every tier.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests import configs
from tests.configs import entry
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

RULES = [
    {"allow": {"group": "readers", "tier": "read-only"}},
    {"deny": {"group": "readers", "tier": ["additive", "destructive", "unknown"], "reason": "Readers only read."}},
    {"allow": {"group": "devs", "server": "notes", "tier": "additive"}},
]
MODERN = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
          "MCP-Protocol-Version": "2026-07-28"}  # fmt: skip


def config_file(tmp_path: Path, demo_cmd: list[str], issuer: str, port: int) -> Path:
    identity = {"issuer": issuer, "audience": f"http://127.0.0.1:{port}/mcp"}
    return configs.config_file(
        tmp_path, {"notes": entry(demo_cmd, trust="trusted")}, {"rules": RULES}, identity=identity
    )


@pytest.fixture
def gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[RunningGateway]:
    port = free_port()
    with running_gateway("--config", str(config_file(tmp_path, demo_cmd, issuer.issuer, port)),
                         bind=f"127.0.0.1:{port}") as running:  # fmt: skip
        yield running


def request(method: str, params: dict[str, Any]) -> dict[str, Any]:
    meta = {"io.modelcontextprotocol/clientInfo": {"name": "agent", "version": "1"},
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}  # fmt: skip
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}


async def ask(http: httpx.AsyncClient, url: str, token: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    headers = {**MODERN, "Authorization": f"Bearer {token}"}
    if method == "tools/call":
        headers["Mcp-Method"], headers["Mcp-Name"] = "tools/call", params["name"]
    else:
        headers["Mcp-Method"] = method
    answer = await http.post(url, headers=headers, json=request(method, params))
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def test_a_reader_sees_and_runs_only_read_only_tools_and_a_devs_write_runs_unasked(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    alice, bob = issuer.token("alice", url), issuer.token("bob", url)
    async with httpx.AsyncClient(timeout=60) as http:
        alice_list = await ask(http, url, alice, "tools/list", {})
        bob_list = await ask(http, url, bob, "tools/list", {})
        alice_reads = await ask(http, url, alice, "tools/call", {"name": "notes_list_notes", "arguments": {}})
        alice_writes = await ask(
            http, url, alice, "tools/call", {"name": "notes_create_note", "arguments": {"title": "t", "body": "b"}}
        )
        bob_writes = await ask(
            http, url, bob, "tools/call", {"name": "notes_create_note", "arguments": {"title": "t", "body": "b"}}
        )
    alice_tools = {tool["name"]: tool for tool in alice_list["result"]["tools"]}
    bob_tools = {tool["name"] for tool in bob_list["result"]["tools"]}
    assert alice_tools, "a reader still sees the read-only tools"
    assert all(tool["annotations"]["readOnlyHint"] for tool in alice_tools.values())
    assert "notes_create_note" not in alice_tools
    assert {"notes_create_note", "notes_delete_note"} <= bob_tools
    assert alice_list["result"]["cacheScope"] == "private"
    assert not alice_reads["result"].get("isError")
    assert alice_writes["result"]["isError"]
    assert "Readers only read." in json.dumps(alice_writes["result"])
    assert not bob_writes["result"].get("isError"), bob_writes


def test_policy_explain_as_a_group_shows_what_its_members_would_get(
    issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]
) -> None:
    config = config_file(tmp_path, demo_cmd, issuer.issuer, free_port())

    def explained(*who: str) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "hintgate", "policy", "explain", "--config", str(config), "--mode", "default",
             "--format", "json", *who],
            check=False, capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        rows: list[dict[str, Any]] = json.loads(done.stdout)
        return {row["tool"]: row["decisions"]["default"] for row in rows}

    readers, devs, nobody = explained("--group", "readers"), explained("--user", "bob", "--group", "devs"), explained()
    assert readers["notes_create_note"]["verdict"] == "deny"
    assert readers["notes_list_notes"]["verdict"] == "allow"
    assert devs["notes_create_note"]["verdict"] == "allow"
    assert nobody["notes_create_note"]["verdict"] == "ask", "rules naming people apply to no one else"


def test_the_typescript_sdk_client_finds_the_issuer_gets_a_token_and_sees_only_its_roles_tools(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    import shutil

    node = shutil.which("node")
    peers = Path(__file__).resolve().parents[1] / "peers"
    if node is None or not (peers / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        pytest.skip("node or the TypeScript MCP SDK is missing (run scripts/test)")
    done = subprocess.run(
        [node, str(peers / "ts_identity_client.mjs"), gateway.mcp_url, issuer.issuer, "alice", "alice-secret",
         "notes_list_notes", "{}"],
        check=False, capture_output=True, text=True, timeout=120, env={**os.environ, "NODE_NO_WARNINGS": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout.strip().splitlines()[-1])
    assert "error" not in output, output
    assert "notes_list_notes" in output["tools"]
    assert "notes_create_note" not in output["tools"], "alice is a reader"
    assert not output["result"].get("isError")
