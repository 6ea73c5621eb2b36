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
            Client(a.mcp_url, mode="legacy") as client,
            httpx.AsyncClient(base_url=a.base_url) as rest_a,
            httpx.AsyncClient(base_url=b.base_url) as rest_b,
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
            httpx.AsyncClient(base_url=a.base_url) as rest_a,
            httpx.AsyncClient(base_url=b.base_url) as rest_b,
        ):
            tool = "/api/tools/fs_read_text_file"
            patched = await rest_b.patch(f"{tool}/overrides", json={"title": "Read a note"}, headers=WRITE)
            assert patched.status_code == 200, patched.text
            # Replica A reads the overrides version only every 30 s without a notification:
            # seeing the title well before then means the NOTIFY carried it.
            with anyio.fail_after(10):
                while (await rest_a.get(tool)).json()["title"] != "Read a note":
                    await asyncio.sleep(0.05)
