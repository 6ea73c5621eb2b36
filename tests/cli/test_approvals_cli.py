"""`hintgate approvals`: a queued call of a real gateway answered from a second terminal, against the same --db."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from tests import configs
from tests.configs import entry
from tests.processes import stop

from hintgate.store import CallFilter, Store
from hintgate.testing import running_gateway
from isolation import child_env

pytestmark = pytest.mark.anyio

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "cli"


def config_file(tmp_path: Path, filesystem_cmd: list[str], timeout: float = 60) -> Path:
    return configs.config_file(tmp_path, {"fs": entry(filesystem_cmd)}, {"approvalTimeout": timeout})


def hintgate(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the hintgate CLI in a child process, as a person in another terminal would."""
    return subprocess.run(
        [sys.executable, "-m", "hintgate", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **child_env(), "COLUMNS": "80"},
        check=False,
    )


async def pending(db: str) -> list[Any]:
    """The pending approvals in the database, once there is at least one."""
    async with await Store.open(db, recover=False, replica="test-reader") as store:
        while not (found := await store.approvals.pending()):
            await asyncio.sleep(0.05)
        return found


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_queued_write_is_approved_with_the_cli_and_its_result_reaches_the_client(
    tmp_path: Path, filesystem_cmd: list[str], mode: str
) -> None:
    db = f"sqlite:///{tmp_path / 'gate.db'}"
    target = Path(filesystem_cmd[-1]) / "approved.txt"
    config = config_file(tmp_path, filesystem_cmd)
    with running_gateway("--config", str(config), "--db", db) as gateway, anyio.fail_after(90):
        async with Client(gateway.mcp_transport(), mode=mode) as client:  # type: ignore[arg-type]
            arguments = {"path": str(target), "content": "from the terminal"}
            call = asyncio.ensure_future(client.call_tool("fs_write_file", arguments))
            [waiting] = await pending(db)
            listed = await asyncio.to_thread(hintgate, "approvals", "--db", db)
            assert listed.returncode == 0, listed.stderr
            assert waiting.id[:8] in listed.stdout
            assert "fs_write_file" in listed.stdout
            assert max(len(line) for line in listed.stdout.splitlines()) <= 80
            # Its arguments, shortened, and why it asks, whole (wrapped between words), at 80 columns.
            assert "content=from the terminal" in listed.stdout
            assert "path=/" in listed.stdout
            said = {word for line in listed.stdout.splitlines() for word in line.split()}
            assert set(waiting.reason.split()) <= said
            if mode == "legacy":
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                (ARTIFACTS / "approvals.txt").write_text(listed.stdout, encoding="utf-8")
            assert not target.exists()
            answered = await asyncio.to_thread(hintgate, "approvals", "approve", waiting.id[:8], "--db", db)
            assert answered.returncode == 0, answered.stderr
            assert "approved once" in answered.stdout
            result = await call
            again = await asyncio.to_thread(hintgate, "approvals", "deny", waiting.id[:8], "--db", db)
    # Read once the gateway stopped: its stderr is read on a thread, and may be behind the answer.
    said = [line for line in gateway.log if "waits for approval" in line]
    answered_lines = [line for line in gateway.log if "fs_write_file (server fs) approved once by" in line]
    assert result.is_error is False
    assert len(answered_lines) == 1
    assert " via queue after " in answered_lines[0]
    assert target.read_text() == "from the terminal"
    assert again.returncode == 5
    assert "already approved" in again.stderr
    assert any("hintgate approvals watch --db" in line for line in said)
    async with await Store.open(db, recover=False) as store:
        [call_row] = await store.calls(CallFilter(tool="fs_write_file"))
        row = await store.approvals.get(waiting.id)
    assert call_row["verdict"] == "approved"
    assert row is not None
    assert (row["state"], row["answered_via"], row["call_id"]) == ("approved", "cli", call_row["id"])


async def test_a_denial_from_the_cli_reaches_the_client_with_its_reason(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'gate.db'}"
    target = Path(filesystem_cmd[-1]) / "denied.txt"
    config = config_file(tmp_path, filesystem_cmd)
    with running_gateway("--config", str(config), "--db", db) as gateway, anyio.fail_after(90):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            call = asyncio.ensure_future(client.call_tool("fs_write_file", {"path": str(target), "content": "x"}))
            [waiting] = await pending(db)
            watched = await asyncio.to_thread(
                hintgate, "approvals", "watch", "--timeout", "1", "--format", "json", "--db", db
            )
            denied = await asyncio.to_thread(
                hintgate, "approvals", "--db", db, "deny", waiting.id, "--reason", "not in this folder"
            )
            result = await call
    assert json.loads(watched.stdout.splitlines()[0])["id"] == waiting.id
    assert denied.returncode == 0, denied.stderr
    assert result.is_error is True
    assert "not in this folder" in result.content[0].text  # type: ignore[union-attr]
    assert not target.exists()


async def test_an_unknown_or_ambiguous_id_exits_1(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'empty.db'}"
    unknown = await asyncio.to_thread(hintgate, "approvals", "approve", "0123", "--db", db)
    assert unknown.returncode == 1
    assert "no approval has an id starting with '0123'" in unknown.stderr


async def test_a_gateway_killed_with_a_pending_approval_runs_nothing_and_the_approval_is_expired_after_restart(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    db = f"sqlite:///{tmp_path / 'gate.db'}"
    target = Path(filesystem_cmd[-1]) / "orphan.txt"
    config = config_file(tmp_path, filesystem_cmd)
    killed = False
    with running_gateway("--config", str(config), "--db", db) as gateway, anyio.fail_after(90):
        try:
            async with Client(gateway.mcp_transport(), mode="legacy") as client, anyio.create_task_group() as tasks:
                tasks.start_soon(client.call_tool, "fs_write_file", {"path": str(target), "content": "x"})
                [waiting] = await pending(db)
                killed = True
                os.kill(gateway.process.pid, signal.SIGKILL)
                gateway.process.wait(timeout=10)
        except Exception:
            if not killed:  # only the client's connection breaking with the gateway is expected
                raise
    with running_gateway("--config", str(config), "--db", db), anyio.fail_after(60):
        late = await asyncio.to_thread(hintgate, "approvals", "approve", waiting.id[:8], "--db", db)
    assert late.returncode == 5
    assert "already expired" in late.stderr
    async with await Store.open(db, recover=False) as store:
        row = await store.approvals.get(waiting.id)
    assert row is not None
    assert (row["state"], row["answered_via"]) == ("expired", "restart")
    assert not target.exists()


def test_watch_on_a_terminal_answers_the_approval_shown_with_a_key_press(tmp_path: Path) -> None:
    import pty
    import select
    import time
    import uuid
    from datetime import UTC, datetime, timedelta

    from hintgate.policy.approvals import PendingApproval

    db = f"sqlite:///{tmp_path / 'watch.db'}"
    now = datetime.now(UTC)
    asked = PendingApproval(
        id=str(uuid.uuid4()),
        tool="fs_write_file",
        title="Write file",
        server="fs",
        arguments={"path": "notes.txt", "content": "hello"},
        reason="writes ask",
        warnings=[],
        session_id=None,
        client_name="test-client",
        created_at=now,
        expires_at=now + timedelta(seconds=60),
        _future=None,
    )

    async def add() -> None:
        async with await Store.open(db, recover=False, replica=f"test:{os.getpid()}") as store:
            await store.approvals.add(asked)

    asyncio.run(add())
    primary, secondary = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-m", "hintgate", "approvals", "watch", "--timeout", "30", "--db", db],
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env={**os.environ, **child_env(), "COLUMNS": "100"},
    )
    os.close(secondary)
    seen = b""
    deadline = time.monotonic() + 60
    try:
        while b"[d] deny" not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            if select.select([primary], [], [], 1)[0]:
                seen += os.read(primary, 4096)
        os.write(primary, b"s")
        deadline = time.monotonic() + 60
        while b"approved for the session" not in seen:
            assert time.monotonic() < deadline, seen.decode(errors="replace")
            if select.select([primary], [], [], 1)[0]:
                seen += os.read(primary, 4096)
    finally:
        stop(child)
        os.close(primary)

    async def state() -> Any:
        async with await Store.open(db, recover=False) as store:
            return await store.approvals.get(asked.id)

    row = asyncio.run(state())
    assert b"fs_write_file" in seen
    assert (row["state"], row["answer"], row["answered_via"]) == ("approved", "approve-session", "cli")


async def test_a_stdio_gateways_queued_write_is_approved_from_a_second_terminal(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    from mcp.client.stdio import StdioServerParameters

    db = f"sqlite:///{tmp_path / 'stdio.db'}"
    target = Path(filesystem_cmd[-1]) / "stdio.txt"
    config = config_file(tmp_path, filesystem_cmd)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--db", db],
        env=child_env(),
    )
    with anyio.fail_after(90):
        async with Client(params, mode="legacy") as client:
            call = asyncio.ensure_future(client.call_tool("fs_write_file", {"path": str(target), "content": "stdio"}))
            [waiting] = await pending(db)
            answered = await asyncio.to_thread(hintgate, "approvals", "approve", waiting.id[:8], "--db", db)
            assert answered.returncode == 0, answered.stderr
            result = await call
    assert result.is_error is False
    assert target.read_text() == "stdio"


async def test_an_approval_nobody_answers_is_logged_as_expired(tmp_path: Path, filesystem_cmd: list[str]) -> None:
    db = f"sqlite:///{tmp_path / 'gate.db'}"
    config = config_file(tmp_path, filesystem_cmd, timeout=1)
    target = Path(filesystem_cmd[-1]) / "never.txt"
    with running_gateway("--config", str(config), "--db", db) as gateway, anyio.fail_after(60):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            result = await client.call_tool("fs_write_file", {"path": str(target), "content": "x"})
    expired = [line for line in gateway.log if "fs_write_file (server fs) expired" in line]  # once it stopped
    assert result.is_error is True
    assert len(expired) == 1
    assert "nobody answered within 1 s; it did not run" in expired[0]
