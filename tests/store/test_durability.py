"""After kill -9 the database opens cleanly with every record committed before the kill.

Durable mode (the default) promises more: every call whose record call returned is in it.
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import anyio
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from hintgate.store import CallFilter, Store, database_url

pytestmark = pytest.mark.anyio

WRITER = Path(__file__).with_name("crash_writer.py")


async def test_a_killed_writer_leaves_a_consistent_database_with_every_flushed_record(store_url: str) -> None:
    flushed = 500
    session_id = str(uuid.uuid4())
    with anyio.fail_after(90):
        process = await anyio.open_process(
            [sys.executable, str(WRITER), store_url, str(flushed), session_id, "fast"], stderr=subprocess.STDOUT
        )
        async with process:
            assert process.stdout is not None
            seen = b""
            while seen.count(b"burst") < 5:  # killed while it records more, mid-batch
                chunk = await process.stdout.receive()
                seen += chunk
            assert b"flushed" in seen, seen.decode(errors="replace")
            process.kill()  # SIGKILL: no cleanup of any kind
            assert await process.wait() == -9

        async with await Store.open(store_url, replica="crash-writer") as store:
            calls = await store.calls(CallFilter(session_id=session_id), limit=1_000_000)
            ids = {row["id"] for row in calls}
            assert {f"call-{n}" for n in range(flushed)} <= ids
            session = await store.session(session_id)

    assert session is not None
    # The counters moved in the same transactions as the inserts: they match the rows exactly.
    assert session["tool_call_count"] == len(calls)
    assert session["total_tokens"] == sum(row["input_tokens"] + row["output_tokens"] for row in calls)
    # Reopened by the same replica: the session the crash left active is closed at its last call.
    assert session["status"] == "closed"
    assert session["ended_at"] == max(row["started_at"] for row in calls)

    if store_url.startswith("sqlite"):
        engine = create_async_engine(database_url(store_url))
        try:
            async with engine.connect() as conn:
                assert (await conn.execute(sa.text("PRAGMA integrity_check"))).scalar() == "ok"
        finally:
            await engine.dispose()


async def test_in_durable_mode_every_call_that_returned_before_a_kill_9_is_in_the_database(store_url: str) -> None:
    session_id = str(uuid.uuid4())
    with anyio.fail_after(90):
        process = await anyio.open_process(
            [sys.executable, str(WRITER), store_url, "10", session_id, "durable"], stderr=subprocess.STDOUT
        )
        async with process:
            assert process.stdout is not None
            seen = b""
            # killed while 8 tasks are recording, mid-commit, once 400 whole "returned" lines are out
            while seen[: seen.rfind(b"\n") + 1].count(b"returned ") < 400:
                seen += await process.stdout.receive()
            process.kill()  # SIGKILL: no cleanup of any kind
            assert await process.wait() == -9
            # What it printed before the kill, to the last byte in the pipe.
            async for chunk in process.stdout:
                seen += chunk

        output = seen.decode(errors="replace")
        complete = output[: output.rfind("\n") + 1]  # a line cut by the kill does not count
        returned = {line.split()[1] for line in complete.splitlines() if line.startswith("returned ")}
        assert "unconfirmed" not in output
        async with await Store.open(store_url, replica="crash-writer") as store:
            calls = await store.calls(CallFilter(session_id=session_id), limit=1_000_000)
            session = await store.session(session_id)

    ids = {row["id"] for row in calls}
    assert len(returned) >= 400
    assert sorted(returned - ids) == []  # no grace: returned means recorded
    assert session is not None
    assert session["tool_call_count"] == len(calls)
