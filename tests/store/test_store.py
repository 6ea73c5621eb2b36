"""The store on SQLite and PostgreSQL: sessions, calls, the recorded queries, overrides, retention."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import sqlite3
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import anyio
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

import hintgate.store
from hintgate.store import CallFilter, RecordingSettings, SessionRecord, Store, StoreError, database_url
from hintgate.store.rows import encode_json
from hintgate.store.tables import sessions, tool_calls
from hintgate.store.tokens import count_tokens

pytestmark = pytest.mark.anyio


async def test_a_session_is_recorded_active_then_closed_with_its_end_time(store: Store, records: Any) -> None:
    rec = records.session()
    store.session_started(rec)
    await store.flush()
    row = await store.session(rec.id)
    assert row is not None
    assert row["status"] == "active"
    assert row["ended_at"] is None
    assert row["client_name"] == "test-client"
    assert row["transport"] == "stdio"
    assert row["started_at"] == rec.started_at.isoformat()

    ended = records.tick()
    store.session_closed(rec.id, ended)
    await store.flush()
    row = await store.session(rec.id)
    assert row is not None
    assert (row["status"], row["ended_at"]) == ("closed", ended.isoformat())


async def test_a_call_keeps_every_field_with_its_hint_snapshot_and_token_counts(store: Store, records: Any) -> None:
    session = records.session()
    call = records.call(
        session.id,
        parent_call_id="call-0",
        execution_type="retry",
        decision={"verdict": "allow", "reason": "read-only", "source": "default", "approver": None},
        verdict="allow",
    )
    store.session_started(session)
    store.record_call(call)
    await store.flush()

    row = await store.call(call.id)
    assert row is not None
    for field in (
        "id",
        "session_id",
        "server_id",
        "server_name",
        "tool_name",
        "upstream_tool",
        "arguments",
        "response",
        "error",
        "duration_ms",
        "request_id",
        "client_name",
        "client_version",
        "parent_call_id",
        "execution_type",
        "hints",
        "tier",
        "decision",
        "verdict",
    ):
        assert row[field] == getattr(call, field), field
    assert row["started_at"] == call.started_at.isoformat()
    assert row["input_tokens"] == count_tokens('{"timezone":"Europe/Paris"}').tokens > 0
    assert row["output_tokens"] == count_tokens("It is 12:00 in Paris.").tokens > 0
    assert row["tokens_estimated"] is True  # a calibrated estimate unless exact counts are asked for
    assert (row["response_truncated"], row["response_cap"]) == (False, store.recording.response_cap)

    summary = await store.session(session.id)
    assert summary is not None
    assert summary["tool_call_count"] == 1
    assert summary["total_tokens"] == row["input_tokens"] + row["output_tokens"]


async def test_session_aggregates_count_tiers_verdicts_errors_and_the_first_and_last_call(
    store: Store, records: Any
) -> None:
    session = records.session()
    store.session_started(session)
    made = [
        records.call(session.id, tier="read-only", verdict="allow"),
        records.call(session.id, tier="destructive", verdict="deny", error="denied by policy", response=None),
        records.call(session.id, tier="destructive", verdict="allow"),
        records.call(session.id, tier="unknown"),
    ]
    for call in made:
        store.record_call(call)
    await store.flush()

    row = await store.session(session.id)
    assert row is not None
    assert row["tool_call_count"] == 4
    assert row["tiers"] == {"read-only": 1, "destructive": 2, "unknown": 1}
    assert row["verdicts"] == {"allow": 2, "deny": 1, "none": 1}
    assert row["errors"] == 1
    assert row["first_call_at"] == made[0].started_at.isoformat()
    assert row["last_call_at"] == made[-1].started_at.isoformat()
    assert row["total_tokens"] == row["input_tokens"] + row["output_tokens"] > 0
    assert await store.session("00000000-0000-4000-8000-000000000000") is None


async def test_recent_sessions_are_newest_first_and_limited(store: Store, records: Any) -> None:
    made = [records.session() for _ in range(5)]
    for rec in made:
        store.session_started(rec)
    await store.flush()
    recent = await store.recent_sessions(3)
    assert [row["id"] for row in recent] == [rec.id for rec in reversed(made)][:3]


async def test_recent_sessions_filter_by_status_and_replica(store: Store, records: Any) -> None:
    here_open = records.session(replica="a")
    here_done = records.session(replica="a")
    there_open = records.session(replica="b")
    for rec in (here_open, here_done, there_open):
        store.session_started(rec)
    store.session_closed(here_done.id, records.tick())
    await store.flush()

    def ids(rows: list[dict[str, Any]]) -> set[str]:
        return {row["id"] for row in rows}

    assert ids(await store.recent_sessions(10, status="active")) == {here_open.id, there_open.id}
    assert ids(await store.recent_sessions(10, status="closed")) == {here_done.id}
    assert ids(await store.recent_sessions(10, replica="a")) == {here_open.id, here_done.id}
    assert ids(await store.recent_sessions(10, status="active", replica="a")) == {here_open.id}
    assert await store.recent_sessions(10, replica="nobody") == []


async def test_recent_sessions_refuse_a_filter_they_do_not_know(store: Store) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'owner_key'"):
        await store.recent_sessions(10, owner_key="someone")  # type: ignore[call-arg]


async def test_a_session_id_prefix_finds_the_sessions_it_starts_and_treats_wildcards_as_text(
    store: Store, records: Any
) -> None:
    tail = "-0000-4000-8000-000000000000"
    for head in ("abc11111", "abc22222", "abd33333"):
        store.session_started(records.session(id=head + tail))
    await store.flush()
    assert await store.sessions_with_prefix("abd") == ["abd33333" + tail]
    assert await store.sessions_with_prefix("abc") == ["abc11111" + tail, "abc22222" + tail]
    assert await store.sessions_with_prefix("a_d") == []
    assert await store.sessions_with_prefix("ab%") == []
    assert await store.sessions_with_prefix("ABD") == []
    assert await store.sessions_with_prefix("zzz") == []


async def test_calls_of_a_session_come_in_order_with_limit_and_offset(store: Store, records: Any) -> None:
    session, other = records.session(), records.session()
    store.session_started(session)
    store.session_started(other)
    mine = []
    for _ in range(7):
        mine.append(records.call(session.id))
        store.record_call(records.call(other.id))
        store.record_call(mine[-1])
    await store.flush()

    page = await store.calls(CallFilter(session_id=session.id), limit=3, offset=2)
    assert [row["id"] for row in page] == [call.id for call in mine[2:5]]
    everything = await store.calls(CallFilter(session_id=session.id), limit=100)
    assert [row["id"] for row in everything] == [call.id for call in mine]


async def test_calls_filter_by_server_tool_tier_verdict_and_time_newest_first(store: Store, records: Any) -> None:
    session = records.session()
    store.session_started(session)
    a = records.call(session.id, server_id="git", tool_name="git_status", tier="read-only", verdict="allow")
    b = records.call(session.id, server_id="fs", tool_name="fs_delete", tier="destructive", verdict="deny")
    c = records.call(session.id, server_id="git", tool_name="git_commit", tier="additive-write", verdict="allow")
    for call in (a, b, c):
        store.record_call(call)
    await store.flush()

    def ids(rows: list[dict[str, Any]]) -> list[str]:
        return [row["id"] for row in rows]

    assert ids(await store.calls()) == [c.id, b.id, a.id]
    assert ids(await store.calls(CallFilter(server="git"))) == [c.id, a.id]
    assert ids(await store.calls(CallFilter(tool="fs_delete"))) == [b.id]
    assert ids(await store.calls(CallFilter(tier="read-only"))) == [a.id]
    assert ids(await store.calls(CallFilter(verdict="allow"))) == [c.id, a.id]
    assert ids(await store.calls(CallFilter(since=b.started_at))) == [c.id, b.id]
    assert ids(await store.calls(CallFilter(until=b.started_at))) == [a.id]
    assert ids(await store.calls(CallFilter(since=a.started_at.isoformat(), until=c.started_at.isoformat()))) == [
        b.id,
        a.id,
    ]
    assert ids(await store.calls(CallFilter(server="git", verdict="allow"), limit=1, offset=1)) == [a.id]
    with pytest.raises(StoreError, match="time filter"):
        await store.calls(CallFilter(since="yesterday"))


async def test_a_response_over_the_cap_is_cut_and_its_size_and_the_cap_recorded(store_url: str, records: Any) -> None:
    text = "word " * 2000
    call = records.call(None, response={"content": [{"type": "text", "text": text}]}, arguments={"q": "é" * 100})
    async with await Store.open(store_url, RecordingSettings(response_cap=120), replica="cap") as store:
        store.record_call(call)
        await store.flush()
        row = await store.call(call.id)
    assert row is not None
    assert row["response_truncated"] is True
    assert row["response_cap"] == 120
    assert row["response_size"] > 10_000
    assert isinstance(row["response"], str)
    assert len(row["response"].encode()) <= 120
    assert row["response"].startswith('{"content":[{"type":"text","text":"word word')
    assert row["arguments_truncated"] is True
    assert row["arguments_size"] == len('{"q":""}') + 200  # é is two bytes
    # Tokens are counted on the whole response, not on what was kept.
    assert row["output_tokens"] == count_tokens(text).tokens


async def test_a_store_counting_exactly_records_exact_o200k_counts(store_url: str, records: Any) -> None:
    session = records.session()
    call = records.call(session.id)
    async with await Store.open(store_url, RecordingSettings(tokens="exact"), replica="exact") as store:
        store.session_started(session)
        store.record_call(call)
        await store.flush()
        row = await store.call(call.id)
    assert row is not None
    assert row["input_tokens"] == count_tokens('{"timezone":"Europe/Paris"}', exact=True).tokens
    assert row["output_tokens"] == count_tokens("It is 12:00 in Paris.", exact=True).tokens
    assert row["tokens_estimated"] is False


async def test_text_a_database_would_refuse_is_stored_cleaned(store: Store, records: Any) -> None:
    # NUL and lone surrogates: PostgreSQL refuses both in text and JSONB.
    call = records.call(
        None,
        response={"content": [{"type": "text", "text": "a\x00b \ud800 c\\u0000d"}]},
        error="bad\x00byte",
    )
    store.record_call(call)
    await store.flush()
    row = await store.call(call.id)
    assert row is not None
    assert row["response"]["content"][0]["text"] == "a\ufffdb \ufffd c\\u0000d"
    assert row["error"] == "bad\ufffdbyte"


async def test_a_call_naming_an_unknown_session_creates_it_active(store: Store, records: Any) -> None:
    session = records.session()
    store.record_call(records.call(session.id))
    await store.flush()
    row = await store.session(session.id)
    assert row is not None
    assert (row["status"], row["tool_call_count"], row["client_name"]) == ("active", 1, None)
    assert row["replica"] == store.replica

    store.session_started(session)  # arriving late, it fills in the client
    await store.flush()
    row = await store.session(session.id)
    assert row is not None
    assert (row["client_name"], row["tool_call_count"]) == ("test-client", 1)


async def test_a_record_the_database_refuses_costs_only_itself(
    store: Store, records: Any, caplog: pytest.LogCaptureFixture
) -> None:
    session = records.session()
    store.session_started(session)
    first = records.call(session.id)
    store.record_call(first)
    store.record_call(records.call(session.id, id=first.id))  # a duplicate primary key
    last = records.call(session.id)
    store.record_call(last)
    await store.flush()

    assert [row["id"] for row in await store.calls(CallFilter(session_id=session.id))] == [first.id, last.id]
    row = await store.session(session.id)
    assert row is not None
    assert row["tool_call_count"] == 2  # the refused call's increment went with it
    assert store.dropped == 1
    assert "dropped" in caplog.text


def test_a_session_id_must_be_a_uuid(records: Any) -> None:
    with pytest.raises(ValueError, match=r"UUID|hexadecimal"):
        records.session(id="not-a-uuid")


async def test_recording_neither_encodes_nor_counts_on_the_callers_thread(store: Store, records: Any) -> None:
    seen: list[threading.Thread] = []

    class Watched(dict[str, Any]):
        def items(self) -> Any:
            seen.append(threading.current_thread())
            return super().items()

    store.record_call(records.call(None, arguments=Watched(path="/tmp")))
    assert seen == []  # record_call only enqueued
    await store.flush()
    assert seen
    assert threading.main_thread() not in seen


async def test_flush_and_close_lose_nothing(store_url: str, records: Any) -> None:
    session = records.session()
    # An interval that never ends within this test: only the flush and the close commit.
    store = await Store.open(store_url, RecordingSettings(commit_interval=10), replica="drain")
    store.session_started(session)
    for _ in range(1200):  # more than two batches
        store.record_call(records.call(session.id))
    await store.close()
    store.record_call(records.call(session.id))  # after close: counted, not raised
    assert store.dropped == 1

    async with await Store.open(store_url, replica="drain") as again:
        row = await again.session(session.id)
        assert row is not None
        assert row["tool_call_count"] == 1200
        assert len(await again.calls(CallFilter(session_id=session.id), limit=5000)) == 1200


async def test_a_close_ends_in_bounded_time_though_a_write_outlives_its_cancellation_and_keeps_what_was_committed(
    store_url: str, records: Any, caplog: pytest.LogCaptureFixture
) -> None:
    session = records.session()
    store = await Store.open(store_url, RecordingSettings(), replica="stuck")
    store.session_started(session)
    store.record_call(records.call(session.id, id="committed"))
    await store.flush()
    released = asyncio.Event()

    async def unanswered(_prepare: Any) -> None:  # a write the server never answers, deaf to cancellation
        while not released.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await released.wait()

    store._recorder._write_batch = unanswered
    store.record_call(records.call(session.id, id="in-flight"))
    with (
        anyio.fail_after(30),
        caplog.at_level(logging.ERROR, logger="hintgate.store"),
        pytest.raises(StoreError, match="1 records could not be written"),
    ):
        await store.close(timeout=0.2)
    assert "'hintgate-store-recorder' did not end within" in caplog.text
    left = [task for task in asyncio.all_tasks() if task.get_name() == "hintgate-store-recorder"]
    released.set()
    with anyio.fail_after(10):
        await asyncio.gather(*left)

    async with await Store.open(store_url, replica="check") as again:
        calls = await again.calls(CallFilter(session_id=session.id))
        assert [call["id"] for call in calls] == ["committed"]


async def test_concurrent_writers_never_lose_an_increment(store_url: str, records: Any) -> None:
    session = records.session()
    first = await Store.open(store_url, RecordingSettings(commit_interval=0), replica="one")
    second = await Store.open(store_url, RecordingSettings(commit_interval=0), replica="two")
    try:
        first.session_started(session)
        await first.flush()

        async def burst(store: Store, prefix: str) -> None:
            for round_ in range(20):
                for i in range(25):
                    store.record_call(records.call(session.id, id=f"{prefix}-{round_}-{i}"))
                await anyio.sleep(0)  # let the other writer in between bursts

        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                tg.start_soon(burst, first, "a")
                tg.start_soon(burst, second, "b")
            await first.flush()
            await second.flush()
    finally:
        await first.close()
        await second.close()

    async with await Store.open(store_url, replica="check") as store:
        row = await store.session(session.id)
        assert row is not None
        assert row["tool_call_count"] == 1000
        assert row["total_tokens"] == row["input_tokens"] + row["output_tokens"]


async def test_a_replica_closes_the_sessions_it_left_active_and_only_those(store_url: str, records: Any) -> None:
    mine, theirs = records.session(replica="a"), records.session(replica="b")
    call = records.call(mine.id)
    async with await Store.open(store_url, replica="a") as crashed:
        crashed.session_started(mine)
        crashed.session_started(theirs)
        crashed.record_call(call)
    # Closed cleanly as a store, but no session end was recorded: as after a crash.
    async with await Store.open(store_url, replica="b-elsewhere") as other:
        row = await other.session(mine.id)
        assert row is not None
        assert row["status"] == "active"
    async with await Store.open(store_url, replica="a", recover=False) as reader:  # e.g. the CLI
        row = await reader.session(mine.id)
        assert row is not None
        assert row["status"] == "active"
    async with await Store.open(store_url, replica="a") as restarted:
        row = await restarted.session(mine.id)
        assert row is not None
        assert (row["status"], row["ended_at"]) == ("closed", call.started_at.isoformat())
        row = await restarted.session(theirs.id)
        assert row is not None
        assert row["status"] == "active"


async def test_a_stdio_gateway_closes_what_a_dead_gateway_on_this_host_left_active(
    store_url: str, records: Any
) -> None:
    import os
    import socket

    dead = f"{socket.gethostname()}:{_finished_pid()}"
    alive = f"{socket.gethostname()}:{os.getpid()}"
    gone, live = records.session(replica=dead), records.session(replica=alive)
    async with await Store.open(store_url, replica=dead) as crashed:
        crashed.session_started(gone)
    async with await Store.open(store_url, replica=alive) as running:
        running.session_started(live)
    # Another gateway on this host (its pid: the test's parent, alive) starts up.
    async with await Store.open(store_url, replica=f"{socket.gethostname()}:{os.getppid()}") as later:
        rows = {sid: await later.session(sid) for sid in (gone.id, live.id)}
    assert rows[gone.id]["status"] == "closed"  # type: ignore[index]
    assert rows[live.id]["status"] == "active"  # type: ignore[index]


def _finished_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait(timeout=30)
    return child.pid


async def test_retention_keeps_the_newest_sessions_with_their_calls(store_url: str, records: Any) -> None:
    made: list[SessionRecord] = []
    async with await Store.open(store_url, RecordingSettings(retention=3), replica="keep") as store:
        for n in range(6):
            rec = records.session()
            made.append(rec)
            store.session_started(rec)
            store.record_call(records.call(rec.id))
            store.record_call(records.call(rec.id))
            if n != 1:  # the second oldest stays active: a live client keeps its history
                store.session_closed(rec.id, records.tick())
        store.record_call(records.call(None, started_at=made[0].started_at))  # sessionless and old
        await store.flush()
        assert await store.prune() == 2

        kept = {row["id"] for row in await store.recent_sessions(100)}
        assert kept == {made[1].id, made[3].id, made[4].id, made[5].id}
        calls = await store.calls(limit=100)
        assert {row["session_id"] for row in calls} == kept
        assert len(calls) == 8


async def test_the_recorder_prunes_after_its_commits(
    store_url: str, records: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hintgate.store, "PRUNE_EVERY", 0)
    async with await Store.open(store_url, RecordingSettings(retention=2), replica="auto") as store:
        for _ in range(4):
            rec = records.session()
            store.session_started(rec)
            store.session_closed(rec.id, records.tick())
            await store.flush()  # a commit each, each followed by a retention pass
        assert len(await store.recent_sessions(100)) == 2


async def test_overrides_are_stored_listed_replaced_and_cleared_bumping_the_version(store: Store) -> None:
    start = await store.overrides.version()
    await store.overrides.set_hint("fs_delete", "destructiveHint", True, actor="alice")
    await store.overrides.set_hint("fs_delete", "readOnlyHint", False)
    await store.overrides.set_hint("git_status", "readOnlyHint", True)
    await store.overrides.set_hint("fs_delete", "destructiveHint", False, actor="bob")  # replaces
    assert await store.overrides.version() == start + 4

    listed = await store.overrides.hints()
    assert [(o["tool"], o["hint"], o["value"], o["updated_by"]) for o in listed] == [
        ("fs_delete", "destructiveHint", False, "bob"),
        ("fs_delete", "readOnlyHint", False, "operator"),
        ("git_status", "readOnlyHint", True, "operator"),
    ]
    assert datetime.fromisoformat(listed[0]["updated_at"]).tzinfo is not None

    assert await store.overrides.clear_hint("fs_delete", "readOnlyHint") == 1
    assert await store.overrides.clear_hint("git_status") == 1
    assert await store.overrides.clear_hint("nothing_here") == 0
    assert await store.overrides.version() == start + 6
    assert [(o["tool"], o["hint"]) for o in await store.overrides.hints()] == [("fs_delete", "destructiveHint")]


async def test_an_override_must_name_a_hint_and_hold_a_bool(store: Store) -> None:
    with pytest.raises(StoreError, match="unknown hint 'readOnly'"):
        await store.overrides.set_hint("t", "readOnly", True)
    with pytest.raises(StoreError, match="true or false"):
        await store.overrides.set_hint("t", "readOnlyHint", "yes")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="tool name"):
        await store.overrides.set_hint("", "readOnlyHint", True)
    assert await store.overrides.hints() == []


async def test_title_overrides_are_stored_replaced_and_cleared_bumping_the_version(store: Store) -> None:
    start = await store.overrides.version()
    await store.overrides.set_title("fs_delete", "Delete a file", actor="alice")
    await store.overrides.set_title("git_status", "Show the working tree's status")
    await store.overrides.set_title("fs_delete", "Delete one file for good", actor="bob")  # replaces
    assert await store.overrides.version() == start + 3
    listed = await store.overrides.titles()
    assert [(o["tool"], o["title"], o["updated_by"]) for o in listed] == [
        ("fs_delete", "Delete one file for good", "bob"),
        ("git_status", "Show the working tree's status", "operator"),
    ]
    assert datetime.fromisoformat(listed[0]["updated_at"]).tzinfo is not None
    assert await store.overrides.hints() == []  # titles are not hint rows

    assert await store.overrides.clear_title("fs_delete") == 1
    assert await store.overrides.clear_title("fs_delete") == 0
    assert await store.overrides.version() == start + 4
    assert [o["tool"] for o in await store.overrides.titles()] == ["git_status"]


@pytest.mark.parametrize(
    ("tool", "title", "message"),
    [
        ("t", "", "must not be empty"),
        ("t", "x" * 201, "at most 200 characters"),
        ("t", "tab\there", "control characters"),
        ("", "A title", "tool name"),
    ],
)
async def test_a_title_override_must_be_a_short_one_line_label(
    store: Store, tool: str, title: str, message: str
) -> None:
    with pytest.raises(StoreError, match=message):
        await store.overrides.set_title(tool, title)
    assert await store.overrides.titles() == []


async def test_the_seed_validation_rules_hold_in_the_database_itself(store: Store, store_url: str) -> None:
    now = datetime.now(UTC)
    base: Mapping[str, Any] = {"started_at": now, "replica": "r", "status": "active"}
    bad = [
        {"status": "paused"},
        {"status": "active", "ended_at": now},
        {"status": "closed", "ended_at": None},
        {"tool_call_count": -1},
        {"total_tokens": -5},
    ]
    engine = create_async_engine(database_url(store_url))
    try:
        for n, fields in enumerate(bad):
            with pytest.raises(IntegrityError):
                async with engine.begin() as conn:
                    await conn.execute(
                        sa.insert(sessions).values({**base, "id": f"{n:08d}-0000-4000-8000-0000", **fields})
                    )
        async with engine.begin() as conn:
            await conn.execute(sa.insert(sessions).values({**base, "id": "00000000-0000-4000-8000-000000000001"}))
            with pytest.raises(IntegrityError):
                async with conn.begin_nested():
                    await conn.execute(
                        sa.insert(tool_calls).values(
                            id="x", server_id="s", tool_name="t", upstream_tool="t", started_at=now,
                            duration_ms=1, input_tokens=-1,
                        )
                    )  # fmt: skip
    finally:
        await engine.dispose()


async def test_tool_usage_counts_calls_errors_last_use_and_the_median_duration_per_tool(
    store: Store, records: Any
) -> None:
    session = records.session()
    store.session_started(session)
    made = [
        records.call(session.id, duration_ms=4.0),
        records.call(session.id, duration_ms=1.0, error="upstream failed", response=None),
        records.call(session.id, duration_ms=10.0),
        records.call(session.id, tool_name="notes_create_note", duration_ms=2.0),
        records.call(session.id, tool_name="notes_create_note", duration_ms=3.0),
    ]
    for call in made:
        store.record_call(call)
    await store.flush()
    usage = await store.tool_usage()
    assert usage == {
        "time_get_current_time": {
            "calls": 3,
            "errors": 1,
            "denied": 0,
            "expired": 0,
            "last_used": made[2].started_at.isoformat(),
            "p50_ms": 4.0,
        },
        "notes_create_note": {
            "calls": 2,
            "errors": 0,
            "denied": 0,
            "expired": 0,
            "last_used": made[4].started_at.isoformat(),
            "p50_ms": 2.5,
        },
    }


async def test_tool_usage_counts_denied_and_expired_calls_apart_from_failures(store: Store, records: Any) -> None:
    session = records.session()
    store.session_started(session)
    made = [
        records.call(session.id, error="upstream failed", response=None, verdict="allow"),
        records.call(session.id, error="denied by rule", response=None, verdict="deny"),
        records.call(session.id, error="a person denied it", response=None, verdict="denied"),
        records.call(session.id, error="nobody answered", response=None, verdict="expired"),
        records.call(session.id, error="the caller left", response=None, verdict="withdrawn"),
        records.call(session.id, verdict="approved"),
    ]
    for call in made:
        store.record_call(call)
    await store.flush()
    used = (await store.tool_usage())["time_get_current_time"]
    assert (used["calls"], used["errors"], used["denied"], used["expired"]) == (6, 1, 2, 2)


async def test_a_durable_call_recorded_alone_on_sqlite_is_committed_in_its_callers_step(
    tmp_path: Any, records: Any
) -> None:
    path = tmp_path / "alone.db"
    async with await Store.open(f"sqlite:///{path}", replica="alone") as store:
        assert await store.record_call_durable(records.call(None))  # the writer's thread opens the loop's connection
        call = records.call(None)
        # Its JSON written already, as a gateway's records have it (`observers.recording.call_record`).
        call = dataclasses.replace(
            call, arguments_json=encode_json(call.arguments), response_json=encode_json(call.response)
        )
        recording = store.record_call_durable(call)
        with pytest.raises(StopIteration) as returned:  # no turn of the event loop: no task woken, none waited for
            recording.send(None)
        assert returned.value.value is True
        with contextlib.closing(sqlite3.connect(path)) as db:  # committed: another connection reads it
            assert db.execute("SELECT COUNT(*) FROM tool_calls WHERE id = ?", (call.id,)).fetchone() == (1,)


def _counting_commits(store: Store) -> list[int]:
    """Counts the recorder's commits (the records in each) from now on."""
    recorder = store._recorder
    commits: list[int] = []
    write_batch, write_now = recorder._write_batch, recorder._write_now

    async def counted(prepared: Any) -> None:
        await write_batch(prepared)
        commits.append(len(prepared._items))

    def counted_now(prepared: Any) -> bool:
        assert write_now is not None
        written = write_now(prepared)
        if written:
            commits.append(len(prepared._items))
        return written

    recorder._write_batch = counted
    recorder._write_now = counted_now
    return commits


async def test_records_of_concurrent_calls_share_one_commit_and_all_land(tmp_path: Any, records: Any) -> None:
    path = tmp_path / "gathered.db"
    async with await Store.open(f"sqlite:///{path}", replica="gathered") as store:
        running = store.running_calls
        store._recorder._window = 5.0  # ends when the last of them is recorded, long before this
        commits = _counting_commits(store)
        calls = [records.call(None) for _ in range(4)]

        async def call(index: int) -> bool:
            try:
                await asyncio.sleep(0.002 * index)  # they end one after another, as calls on one server do
                return await store.record_call_durable(calls[index])
            finally:
                running.leave()

        for _ in calls:
            running.enter()
        started = asyncio.get_running_loop().time()
        with anyio.fail_after(4):
            committed = await asyncio.gather(*(call(index) for index in range(len(calls))))
        assert committed == [True] * len(calls)
        assert asyncio.get_running_loop().time() - started < 4
        assert commits == [len(calls)]  # one commit, not one per call
        with contextlib.closing(sqlite3.connect(path)) as db:
            assert db.execute("SELECT COUNT(*) FROM tool_calls").fetchone() == (len(calls),)


async def test_a_record_held_for_calls_still_running_is_committed_once_the_window_ends(
    tmp_path: Any, records: Any
) -> None:
    async with await Store.open(f"sqlite:///{tmp_path / 'held.db'}", replica="held") as store:
        for _ in range(5):  # four other calls run, none of them ends
            store.running_calls.enter()
        store._recorder._window = 0.2
        commits = _counting_commits(store)
        loop = asyncio.get_running_loop()
        started = loop.time()
        with anyio.fail_after(10):
            assert await store.record_call_durable(records.call(None)) is True
        held = loop.time() - started
        assert 0.2 <= held < 5  # held for the window, not for the calls that still run
        assert commits == [1]


async def test_a_durable_call_running_alone_among_several_sessions_is_committed_in_its_callers_step(
    tmp_path: Any, records: Any
) -> None:
    path = tmp_path / "alone_among.db"
    async with await Store.open(f"sqlite:///{path}", replica="alone-among") as store:
        first, second = records.session(), records.session()
        store.session_started(first)
        store.session_started(second)
        store.running_calls.enter()  # two sessions, one call running: its own
        assert await store.record_call_durable(records.call(first.id))
        call = records.call(second.id)
        call = dataclasses.replace(
            call, arguments_json=encode_json(call.arguments), response_json=encode_json(call.response)
        )
        recording = store.record_call_durable(call)
        with pytest.raises(StopIteration) as returned:  # no group commit to wait for: nothing else runs
            recording.send(None)
        assert returned.value.value is True


async def test_a_durable_call_among_several_active_sessions_waits_to_share_the_tasks_group_commit(
    tmp_path: Any, records: Any
) -> None:
    path = tmp_path / "shared.db"
    async with await Store.open(f"sqlite:///{path}", replica="shared") as store:
        first, second = records.session(), records.session()
        store.session_started(first)
        store.session_started(second)
        assert await store.record_call_durable(records.call(first.id))
        call = records.call(second.id)
        call = dataclasses.replace(
            call, arguments_json=encode_json(call.arguments), response_json=encode_json(call.response)
        )
        recording = store.record_call_durable(call)
        assert recording.send(None) is not None  # queued: calls of other sessions ending now share its commit
        recording.close()  # its caller gone: the record stays queued, and is committed
        with anyio.fail_after(10):
            await store.flush()
        assert [c["id"] for c in await store.calls(CallFilter(session_id=second.id))] == [call.id]
