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
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
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


def hintgate(*args: str) -> subprocess.CompletedProcess[str]:
    """The hintgate CLI in a child, as a person in another terminal runs it (no HINTGATE_URL or token set)."""
    env = {k: v for k, v in os.environ.items() if k not in ("HINTGATE_URL", "HINTGATE_TOKEN", "HINTGATE_API_TOKEN")}
    return subprocess.run(
        [sys.executable, "-m", "hintgate", *args],
        check=False, capture_output=True, text=True, timeout=60, env={**env, "COLUMNS": "200"},
    )  # fmt: skip


@pytest.fixture
def global_gateway(issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str]) -> Iterator[tuple[RunningGateway, str]]:
    """The team's gateway with global approvers: every call that asks is a dba's to answer."""
    port = free_port()
    db = f"sqlite:///{tmp_path / 'team.db'}"
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp"},
        "policy": {
            "approvers": {"group": "dba"},
            "approvalTimeout": 60,
            "rules": [{"allow": {"group": "devs", "server": "notes", "tier": "additive"}},
                      {"ask": {"server": "notes", "tier": "destructive"}}],
        },
    }))  # fmt: skip
    with running_gateway("--config", str(config), "--db", db, bind=f"127.0.0.1:{port}") as running:
        yield running, db


async def test_a_dba_approves_with_hintgate_approvals_as_themselves_and_others_are_refused_by_name(
    issuer: OidcIssuer, global_gateway: tuple[RunningGateway, str]
) -> None:
    gateway, db = global_gateway
    url = gateway.mcp_url
    tokens = {person: issuer.token(person, url) for person in ("alice", "bob", "carol")}
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {tokens['bob']}"}, timeout=90) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy") as bob,  # type: ignore[arg-type]
    ):
        created = await bob.call_tool("notes_create_note", {"title": "t", "body": "b"})
        assert not created.is_error, created
        note_id = json.loads(created.content[0].text)["id"]  # type: ignore[union-attr]
        results: list[Any] = []

        async def delete() -> None:
            results.append(await bob.call_tool("notes_delete_note", {"note_id": note_id}))

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(delete)

            def as_person(person: str, *args: str) -> subprocess.CompletedProcess[str]:
                return hintgate("approvals", *args, "--url", gateway.base_url, "--token", tokens[person])

            with anyio.fail_after(60):  # bounded: the call reaches the queue in well under a second
                while not json.loads((listed := await anyio.to_thread.run_sync(
                    lambda: as_person("carol", "--format", "json"))).stdout or "[]"):  # fmt: skip
                    assert listed.returncode == 0, listed.stderr
                    await anyio.sleep(0.1)
            [approval] = json.loads(listed.stdout)
            # No rule names approvers: the global ones do.
            assert (approval["caller"], approval["approvers"]) == ("bob@example.com", "group dba")
            table = await anyio.to_thread.run_sync(lambda: as_person("carol"))
            assert "bob@example.com" in table.stdout
            assert "group dba" in table.stdout
            watched = await anyio.to_thread.run_sync(
                lambda: as_person("carol", "watch", "--format", "json", "--timeout", "1")
            )
            assert watched.returncode == 0, watched.stderr
            assert [json.loads(line)["id"] for line in watched.stdout.splitlines()] == [approval["id"]]
            short = approval["id"][:8]
            # alice is no approver: the call is not listed for her, and its whole id is refused by name.
            alices = await anyio.to_thread.run_sync(lambda: as_person("alice", "--format", "json"))
            assert json.loads(alices.stdout) == []
            by_alice = await anyio.to_thread.run_sync(lambda: as_person("alice", "approve", approval["id"]))
            by_bob = await anyio.to_thread.run_sync(lambda: as_person("bob", "approve", short))
            # The database's reader is the machine's user, not a person the issuer vouched for.
            by_operator = await anyio.to_thread.run_sync(lambda: hintgate("approvals", "approve", short, "--db", db))
            assert not results, "nobody who may not answer got the call through"
            by_carol = await anyio.to_thread.run_sync(lambda: as_person("carol", "approve", short))
        assert (by_alice.returncode, by_bob.returncode, by_operator.returncode) == (6, 6, 6)
        assert "only group dba may answer this call, not alice@example.com" in by_alice.stderr
        assert "bob@example.com made this call and may not approve it" in by_bob.stderr
        assert "is not a signed-in person" in by_operator.stderr
        assert "--url URL --token TOKEN" in by_operator.stderr
        assert by_carol.returncode == 0, by_carol.stderr
        assert "notes_delete_note" in by_carol.stdout
    [deleted] = results
    assert not deleted.is_error, deleted
    done = hintgate("calls", "--db", db, "--user", "bob@example.com", "--tool", "notes_delete_note", "--format", "json")
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    assert record["user_name"] == "bob@example.com"
    assert record["decision"]["approver"] == "carol@example.com"
    assert record["verdict"] == "approved"


async def test_whether_the_caller_may_answer_their_own_call_holds_on_every_replica(
    issuer: OidcIssuer, tmp_path: Path, demo_cmd: list[str], postgres_server: Any
) -> None:
    """Two replicas on one PostgreSQL database: alice's calls wait on the first, and she answers through the
    second, which reads the approvers back from the store. Deleting a note is hers to approve only if the
    rule said `selfApproval: true` (it does not); creating one, whose rule says so, she may approve."""
    db = postgres_server.create_database()
    ports = free_port(), free_port()
    config = tmp_path / "hintgate.json"
    rules = [
        {"ask": {"tool": "notes_delete_note", "approvers": {"group": "readers"}}},
        {"ask": {"tool": "notes_create_note", "approvers": {"group": "readers"}, "selfApproval": True}},
    ]
    config.write_text(json.dumps({
        "mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{ports[0]}/mcp"},
        "policy": {"rules": rules, "approvalTimeout": 60},
    }))  # fmt: skip
    with (
        running_gateway("--config", str(config), "--db", db, bind=f"127.0.0.1:{ports[0]}") as first,
        running_gateway("--config", str(config), "--db", db, bind=f"127.0.0.1:{ports[1]}") as second,
    ):
        url = first.mcp_url
        alice = {"Authorization": f"Bearer {issuer.token('alice', url)}"}
        results: dict[str, Any] = {}
        async with (
            httpx2.AsyncClient(headers=alice, timeout=90) as http,
            Client(streamable_http_client(url, http_client=http), mode="legacy") as client,  # type: ignore[arg-type]
            httpx.AsyncClient(base_url=second.base_url, headers=alice, timeout=30) as api,
            anyio.create_task_group() as tasks,
        ):

            async def call(tool: str, arguments: dict[str, Any]) -> None:
                results[tool] = await client.call_tool(tool, arguments)

            async def waiting(tool: str) -> dict[str, Any]:
                with anyio.fail_after(30):  # bounded: the call reaches the shared queue in well under a second
                    while not (found := [a for a in (await api.get("/api/approvals")).json() if a["tool"] == tool]):
                        await anyio.sleep(0.05)
                [approval] = found
                return dict(approval)

            tasks.start_soon(call, "notes_create_note", {"title": "t", "body": "b"})
            created = await waiting("notes_create_note")
            own_create = await api.post(f"/api/approvals/{created['id']}", json={"answer": "approve-once"})
            tasks.start_soon(call, "notes_delete_note", {"note_id": 1})
            deleting = await waiting("notes_delete_note")
            own_delete = await api.post(f"/api/approvals/{deleting['id']}", json={"answer": "approve-once"})
            other_reader = {"Authorization": f"Bearer {issuer.token('mallory', url)}"}
            denied = await api.post(f"/api/approvals/{deleting['id']}", json={"answer": "deny"}, headers=other_reader)
    assert own_create.status_code == 200, own_create.text
    assert own_delete.status_code == 403, own_delete.text
    assert "alice@example.com made this call and may not approve it" in own_delete.json()["detail"]
    assert denied.status_code == 200, denied.text  # another reader may
    assert not results["notes_create_note"].is_error
    assert results["notes_delete_note"].is_error
