"""Tasks kept in the store: a `kill -9` loses none, and any replica answers a client's tasks.

Real parts: `hintgate serve --http` processes, the task fixture server
(tests/fixtures/task_server.py) reached by URL, so its tasks outlive a
gateway and several gateways reach the same ones, a SQLite file, and a real
PostgreSQL shared by two replicas. The fixture writes each `tasks/cancel` it
receives to a file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from tests.processes import free_port, stop
from tests.server.test_tasks import TASK_SERVER, cancels, client, recorded, start, task_request
from tests.waiting import until

from hintgate.server.tasks import NOT_FOUND
from hintgate.store.tasks import WITHDRAWN_AT_START
from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio


@pytest.fixture
def builds(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The task fixture server over streamable HTTP: its URL and the file it logs cancellations to."""
    log = tmp_path / "cancels.log"
    port = free_port()
    process = subprocess.Popen([sys.executable, TASK_SERVER, str(log), str(port)], stderr=subprocess.DEVNULL)
    try:
        until(lambda: _listening(port, process), "the task server listening", within=30)
        yield f"http://127.0.0.1:{port}/mcp", log
    finally:
        stop(process)


def _listening(port: int, process: subprocess.Popen[bytes]) -> bool:
    import socket

    assert process.poll() is None, "the task server exited"
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def config(tmp_path: Path, url: str) -> Path:
    path = tmp_path / "hintgate.json"
    servers = {"builds": {"url": url}}
    path.write_text(json.dumps({"mcpServers": servers, "policy": {"rules": [{"allow": {"server": "builds"}}]}}))
    return path


def stored_calls(db: str) -> list[dict[str, Any]]:
    listed = subprocess.run(
        [sys.executable, "-m", "hintgate", "calls", "--tool", "builds_build", "--format", "json", "--db", db],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    rows: list[dict[str, Any]] = json.loads(listed.stdout)
    return rows


async def test_a_task_running_when_its_gateway_is_killed_is_on_record_and_cancelled_upstream_at_its_restart(
    tmp_path: Path, builds: tuple[str, Path]
) -> None:
    url, log = builds
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    args = ("--config", str(config(tmp_path, url)), "--db", db)
    env = {"HINTGATE_REPLICA": "gateway-one"}
    with running_gateway(*args, env=env) as first, anyio.fail_after(120):
        async with client(first) as c:
            handle = await start(c, "kilo")
        # The call's record was committed before the handle went out: decision and arguments, no end yet.
        [started] = stored_calls(db)
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=30)
    assert (started["error"], started["response"], started["verdict"]) == (None, None, "allow")
    assert started["arguments"] == {"target": "kilo"}
    assert cancels(log) == []  # the task ran on upstream: nothing stopped it
    with running_gateway(*args, env=env) as second, anyio.fail_after(120):
        (line,) = until(lambda: cancels(log), "the task cancelled upstream at the restart", within=60)
        (row,) = until(lambda: recorded(second, "builds_build"), "the withdrawn call", within=30)
        async with client(second) as c:
            withdrawn = await task_request(c, "tasks/get", handle.task_id)
    assert line.startswith("cancel ")
    assert line.endswith(" kilo")
    assert handle.task_id not in line
    assert row["id"] == started["id"]
    assert row["error"] == WITHDRAWN_AT_START
    assert withdrawn["status"] == "cancelled"


async def test_a_stdio_servers_task_is_recorded_withdrawn_when_its_gateway_was_killed(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    path = tmp_path / "hintgate.json"
    builds = {"command": sys.executable, "args": [TASK_SERVER, str(log)]}
    path.write_text(
        json.dumps({"mcpServers": {"builds": builds}, "policy": {"rules": [{"allow": {"server": "builds"}}]}})
    )
    args = ("--config", str(path), "--db", db)
    with running_gateway(*args) as first, anyio.fail_after(120):
        async with client(first) as c:
            await start(c, "lima")
        os.kill(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=30)
    # Its next start on this host takes over what the dead process (another HOST:PID) left.
    with running_gateway(*args) as second, anyio.fail_after(120):
        (row,) = until(lambda: recorded(second, "builds_build"), "the withdrawn call", within=30)
    assert row["error"] == WITHDRAWN_AT_START
    assert row["arguments"] == {"target": "lima"}


@asynccontextmanager
async def same_client(running: RunningGateway, name: str = "agent") -> AsyncIterator[Client]:
    async with client(running, name) as c:
        yield c


async def test_two_replicas_on_one_postgresql_answer_each_others_tasks(
    postgres_server: Any, tmp_path: Path, builds: tuple[str, Path]
) -> None:
    url, log = builds
    db = postgres_server.create_database()
    args = ("--config", str(config(tmp_path, url)), "--db", db)
    with (
        running_gateway(*args, env={"HINTGATE_REPLICA": "a"}) as a,
        running_gateway(*args, env={"HINTGATE_REPLICA": "b"}) as b,
        anyio.fail_after(120),
    ):
        async with same_client(a) as on_a, same_client(b) as on_b, same_client(b, "another") as stranger:
            # Started before any result is read: the untrusted server's results taint the session, and then
            # its writes ask.
            from_a = await start(on_a, "alpha")
            from_b = await start(on_b, "bravo")
            charlie = await start(on_a, "charlie")
            # Each replica answers the other's task: the same client, through a load balancer without affinity.
            working = await task_request(on_b, "tasks/get", from_a.task_id)
            await on_b.call_tool("builds_finish", {"target": "alpha"})
            await on_a.call_tool("builds_finish", {"target": "bravo"})
            alpha = await task_request(on_b, "tasks/get", from_a.task_id)
            alpha_again = await task_request(on_a, "tasks/get", from_a.task_id)
            bravo = await task_request(on_a, "tasks/get", from_b.task_id)
            with pytest.raises(MCPError) as refused:
                await task_request(stranger, "tasks/get", from_a.task_id)
            await task_request(on_b, "tasks/cancel", charlie.task_id)
        rows = until(lambda: _ended(recorded(a, "builds_build"), 3), "the three calls recorded as ended", within=30)
    assert working["status"] == "working"
    assert working["taskId"] == from_a.task_id
    assert alpha["status"] == bravo["status"] == "completed"
    assert alpha["result"]["content"][0]["text"] == "built alpha"
    assert alpha_again["result"] == alpha["result"]  # the same scanned result, from the store
    assert bravo["result"]["content"][0]["text"] == "built bravo"
    assert refused.value.code == NOT_FOUND
    (line,) = cancels(log)
    assert line.endswith(" charlie")
    by_target = {row["arguments"]["target"]: row for row in rows}
    assert by_target["alpha"]["error"] is None
    assert "built alpha" in json.dumps(by_target["alpha"]["response"])
    assert "built bravo" in json.dumps(by_target["bravo"]["response"])
    assert "cancelled by its client" in by_target["charlie"]["error"]


def _ended(rows: list[dict[str, Any]], count: int) -> list[dict[str, Any]] | None:
    done = [row for row in rows if row["response"] is not None or row["error"] is not None]
    return done if len(done) == count else None
