"""Approvals by a person with a role: only the rule's approvers answer, never the caller, and the record
names both people. Against a real OpenID provider (npm `oidc-provider`) and `hintgate serve`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from hintgate.testing import RunningGateway, running_gateway
from oauth_peer import free_port
from oidc_peer import OidcIssuer

pytestmark = pytest.mark.anyio

RULES = [
    {"allow": {"group": "devs", "server": "notes", "tier": "additive"}},
    {"ask": {"server": "notes", "tier": "destructive", "approvers": {"group": "dba"}}},
]


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


async def test_a_destructive_call_waits_for_a_dba_and_the_record_names_both_people(
    issuer: OidcIssuer, gateway: RunningGateway
) -> None:
    url = gateway.mcp_url
    tokens = {person: issuer.token(person, url) for person in ("alice", "bob", "carol")}
    asked_the_client: list[Any] = []

    async def elicit(*args: Any) -> Any:  # bob's client offers to answer: it must not be asked
        asked_the_client.append(args)
        raise AssertionError("the caller was asked to approve their own call")

    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {tokens['bob']}"}, timeout=90) as http,
        Client(
            streamable_http_client(url, http_client=http),  # type: ignore[arg-type]
            mode="legacy",
            elicitation_callback=elicit,
        ) as bob,
        httpx.AsyncClient(base_url=gateway.base_url, timeout=30) as api,
    ):
        created = await bob.call_tool("notes_create_note", {"title": "t", "body": "b"})
        assert not created.is_error, created
        note_id = json.loads(created.content[0].text)["id"]  # type: ignore[union-attr]
        results: list[Any] = []

        async def delete() -> None:
            results.append(await bob.call_tool("notes_delete_note", {"note_id": note_id}))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(delete)

            async def pending() -> list[dict[str, Any]]:
                listed = await api.get("/api/approvals", headers={"Authorization": f"Bearer {tokens['carol']}"})
                rows: list[dict[str, Any]] = listed.json()
                return rows

            with anyio.fail_after(30):  # bounded: the call reaches the queue in well under a second
                while not (waiting := await pending()):
                    await anyio.sleep(0.05)
            [approval] = waiting
            assert (approval["caller"], approval["approvers"]) == ("bob@example.com", "group dba")

            async def answer(person: str) -> httpx.Response:
                return await api.post(
                    f"/api/approvals/{approval['id']}",
                    headers={"Authorization": f"Bearer {tokens[person]}"},
                    json={"answer": "approve-once"},
                )

            by_alice, by_bob = await answer("alice"), await answer("bob")
            by_carol = await answer("carol")
        assert (by_alice.status_code, by_bob.status_code) == (403, 403)
        assert "only group dba" in by_alice.json()["detail"]
        assert "may not approve it" in by_bob.json()["detail"]
        assert by_carol.status_code == 200, by_carol.text
    assert not asked_the_client
    [deleted] = results
    assert not deleted.is_error, deleted
    done = subprocess.run(
        [sys.executable, "-m", "hintgate", "calls", "--user", "bob@example.com", "--tool", "notes_delete_note",
         "--format", "json"],
        check=False, capture_output=True, text=True, timeout=60, env={**os.environ},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    assert record["user_name"] == "bob@example.com"
    assert record["decision"]["approver"] == "carol@example.com"
    assert record["verdict"] == "approved"
