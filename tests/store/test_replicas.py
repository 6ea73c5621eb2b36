"""Two `serve --http` replicas on one PostgreSQL database share one approval queue."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from hintgate.testing import running_gateway
from isolation import child_env

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}


def write(client: Client, root: Path, name: str) -> asyncio.Future[Any]:
    """Start a write_file call that will wait for approval."""
    return asyncio.ensure_future(client.call_tool("fs_write_file", {"path": str(root / name), "content": name}))


async def waiting_on(rest: Any) -> dict[str, Any]:
    """The one approval a replica's REST API lists, once there is one."""
    while not (listed := (await rest.get("/api/approvals")).json()):
        await asyncio.sleep(0.05)
    [approval] = listed
    return dict(approval)


async def test_a_call_reaching_replica_a_is_answered_through_replica_b_and_through_the_cli(
    postgres_server: Any, tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    import httpx

    db = postgres_server.create_database()
    root = Path(filesystem_cmd[-1])
    config = tmp_path / "hintgate.json"
    servers = {"fs": {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]}}
    config.write_text(json.dumps({"mcpServers": servers, "policy": {"approvalTimeout": 60}}))
    with (
        running_gateway("--config", str(config), "--db", db) as a,
        running_gateway("--config", str(config), "--db", db) as b,
        anyio.fail_after(120),
    ):
        async with (
            Client(a.mcp_transport(), mode="legacy") as client,
            httpx.AsyncClient(base_url=a.base_url, headers=a.headers) as rest_a,
            httpx.AsyncClient(base_url=b.base_url, headers=b.headers) as rest_b,
        ):
            # Answered through replica B's REST API.
            first = write(client, root, "b.txt")
            approval = await waiting_on(rest_b)
            assert approval["replica"] == f"{socket.gethostname()}:{a.process.pid}"
            answered = await rest_b.post(
                f"/api/approvals/{approval['id']}", json={"answer": "approve-once"}, headers=WRITE
            )
            assert answered.status_code == 200, answered.text
            assert (await first).is_error is False

            # Answered with `hintgate approvals approve`, against the same database.
            second = write(client, root, "cli.txt")
            approval = await waiting_on(rest_b)
            cli = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "hintgate", "approvals", "approve", approval["id"][:8], "--db", db],
                capture_output=True,
                text=True,
                timeout=60,
                env={**os.environ, **child_env()},
                check=False,
            )
            assert cli.returncode == 0, cli.stderr
            assert (await second).is_error is False

            # Two replicas answer at once: exactly one answer wins, the other is told what won.
            third = write(client, root, "race.txt")
            approval = await waiting_on(rest_a)
            path = f"/api/approvals/{approval['id']}"
            deny, approve = await asyncio.gather(
                rest_a.post(path, json={"answer": "deny"}, headers=WRITE),
                rest_b.post(path, json={"answer": "approve-once"}, headers=WRITE),
            )
            raced = await third
    assert (root / "b.txt").read_text() == "b.txt"
    assert (root / "cli.txt").read_text() == "cli.txt"
    assert sorted([deny.status_code, approve.status_code]) == [200, 409]
    loser = deny if deny.status_code == 409 else approve
    won = "denied" if approve is loser else "approved"
    assert f"is {won}" in loser.json()["detail"]
    assert raced.is_error is (won == "denied")
    assert (root / "race.txt").exists() is (won == "approved")


async def test_an_override_set_on_replica_b_reaches_replica_a_through_the_notification(
    postgres_server: Any, tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    import httpx

    db = postgres_server.create_database()
    config = tmp_path / "hintgate.json"
    servers = {"fs": {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]}}
    config.write_text(json.dumps({"mcpServers": servers}))
    with (
        running_gateway("--config", str(config), "--db", db) as a,
        running_gateway("--config", str(config), "--db", db) as b,
        anyio.fail_after(120),
    ):
        async with (
            httpx.AsyncClient(base_url=a.base_url, headers=a.headers) as rest_a,
            httpx.AsyncClient(base_url=b.base_url, headers=b.headers) as rest_b,
        ):
            tool = "/api/tools/fs_read_text_file"
            patched = await rest_b.patch(f"{tool}/overrides", json={"title": "Read a note"}, headers=WRITE)
            assert patched.status_code == 200, patched.text
            # Replica A reads the overrides version only every 30 s without a notification:
            # seeing the title well before then means the NOTIFY carried it.
            with anyio.fail_after(10):
                while (await rest_a.get(tool)).json()["title"] != "Read a note":
                    await asyncio.sleep(0.05)


async def test_a_database_role_without_grants_cannot_approve_a_waiting_call_of_a_running_gateway(
    postgres_server: Any, tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    import asyncpg
    import httpx
    import httpx2
    import sqlalchemy as sa
    from mcp.client.streamable_http import streamable_http_client

    db = postgres_server.create_database()
    owner = sa.make_url(db)
    mallory = "mallory_" + os.urandom(4).hex()
    admin = await asyncpg.connect(host=owner.host, port=owner.port, user=owner.username, database=owner.database)
    try:
        await admin.execute(f"CREATE ROLE {mallory} LOGIN")  # granted nothing at all
    finally:
        await admin.close()
    root = Path(filesystem_cmd[-1])
    config = tmp_path / "hintgate.json"
    servers = {"fs": {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]}}
    config.write_text(json.dumps({"mcpServers": servers, "policy": {"approvalTimeout": 60}}))
    token = "forgery-test-token-" + "7" * 16
    bearer = {"Authorization": f"Bearer {token}"}
    env = {"HINTGATE_API_TOKEN": token}
    with running_gateway("--config", str(config), "--db", db, env=env) as gateway, anyio.fail_after(120):
        forger = await asyncpg.connect(host=owner.host, port=owner.port, user=mallory, database=owner.database)
        try:
            async with (
                httpx2.AsyncClient(headers=bearer, timeout=60) as http,
                Client(streamable_http_client(gateway.mcp_url, http_client=http), mode="legacy") as client,  # type: ignore[arg-type]
                httpx.AsyncClient(base_url=gateway.base_url, headers=bearer) as rest,
            ):
                call = write(client, root, "forged.txt")
                approval = await waiting_on(rest)
                forged = {
                    "id": approval["id"],
                    "state": "approved",
                    "answer": "approve-once",
                    "answered_by": "mallory",
                    "answered_via": "api",
                    "end_reason": "approved by mallory (api)",
                }
                for _ in range(3):  # delivered in commit order, before the real answer below
                    await forger.execute("SELECT pg_notify('hintgate_approvals', $1)", json.dumps(forged))
                denied = await rest.post(
                    f"/api/approvals/{approval['id']}", json={"answer": "deny"}, headers={**WRITE, **bearer}
                )
                assert denied.status_code == 200, denied.text
                result = await call
                calls = (await rest.get("/api/calls")).json()
        finally:
            await forger.close()
    assert result.is_error
    assert not (root / "forged.txt").exists()
    assert "mallory" not in json.dumps(calls)
