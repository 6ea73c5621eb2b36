"""The recorder's SQLite writer: a batch in one transaction on a thread of its own (a light one on the event loop's),
stored as the engine stores it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
from sqlalchemy import make_url
from sqlalchemy.exc import IntegrityError

from hintgate.store import CallFilter, Store, database_url
from hintgate.store import writer as writer_module
from hintgate.store.engine import async_engine
from hintgate.store.queries import begin_write
from hintgate.store.rows import CALL, CLOSE, START, Encoded, Item, json_serializer, prepare, write
from hintgate.store.writer import CACHE_KIB, CHECKPOINT_EVERY, SqliteWriter

pytestmark = pytest.mark.anyio


def _writer_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "hintgate-store-writer"]


def _rows(path: Path) -> dict[str, list[sqlite3.Row]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.row_factory = sqlite3.Row
        tables = ("sessions", "tool_calls")
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY id").fetchall() for table in tables}


async def test_the_sqlite_writer_stores_every_column_as_the_async_engine_does(tmp_path: Path, records: Any) -> None:
    session = records.session(started_at=datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=UTC))
    items: list[Item] = [
        (START, session, None),
        (CALL, records.call(session.id, decision={"verdict": "allow", "reason": "read-only"}, verdict="allow"), None),
        (
            CALL,
            records.call(session.id, arguments=None, response=None, error="boom", started_at=datetime(2026, 1, 2)),
            None,
        ),
        (CALL, records.call(None, arguments={"text": "\ud800 lone", "nul": "\u0000"}, parent_call_id="call-1"), None),
        (CALL, records.call(records.session().id, response={"content": [{"type": "text", "text": "x" * 300}]}), None),
        (CLOSE, (session.id, datetime(2026, 1, 1, 13, tzinfo=UTC)), None),
    ]
    batch = prepare(items, response_cap=200, replica="same")
    paths = [tmp_path / "writer.db", tmp_path / "engine.db"]
    for path in paths:
        await (await Store.open(f"sqlite:///{path}", replica="same")).close()  # created and migrated

    writer = SqliteWriter(make_url(database_url(str(paths[0]))))
    try:
        await writer.write(lambda: batch)
    finally:
        await writer.close()
    engine = async_engine(make_url(database_url(str(paths[1]))))
    try:
        async with begin_write(engine) as conn:
            await write(conn, batch)
    finally:
        await engine.dispose()

    by_writer, by_engine = _rows(paths[0]), _rows(paths[1])
    assert {t: [tuple(r) for r in rows] for t, rows in by_writer.items()} == {
        t: [tuple(r) for r in rows] for t, rows in by_engine.items()
    }
    assert len(by_writer["tool_calls"]) == 4
    # a stub, and the closed session
    assert sorted(row["status"] for row in by_writer["sessions"]) == ["active", "closed"]


async def test_the_writers_connection_keeps_a_small_page_cache(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "cache.db"
    await (await Store.open(f"sqlite:///{path}", replica="cache")).close()
    writer = SqliteWriter(make_url(database_url(str(path))))
    sizes: list[int] = []
    try:
        await writer.write(lambda: prepare([(CALL, records.call(None), None)], response_cap=200, replica="cache"))
        await writer._run(
            lambda: sizes.append(writer._conn.driver_connection.execute("PRAGMA cache_size").fetchone()[0])
        )
    finally:
        await writer.close()
    assert sizes == [-CACHE_KIB]
    assert CACHE_KIB < 2000  # SQLite's default is 2000 KiB


async def test_the_writer_binds_the_json_prepare_encoded_as_it_is(
    tmp_path: Path, records: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "encoded.db"
    await (await Store.open(f"sqlite:///{path}", replica="encoded")).close()
    encoded_again: list[Any] = []

    def serializer(value: Any) -> str:
        if isinstance(value, Encoded):
            encoded_again.append(value)
        return json_serializer(value)

    monkeypatch.setattr(writer_module, "json_serializer", serializer)
    writer = SqliteWriter(make_url(database_url(str(path))))
    call = records.call(None, decision={"verdict": "allow", "reason": "read-only"}, verdict="allow")
    try:
        await writer.write(lambda: prepare([(CALL, call, None)], response_cap=2000, replica="encoded"))
    finally:
        await writer.close()
    stored = _rows(path)["tool_calls"][0]
    assert json.loads(stored["decision"]) == {"verdict": "allow", "reason": "read-only"}
    assert stored["response"] is not None
    assert stored["arguments"] is not None
    assert encoded_again == []  # arguments, response, hints and decision: each JSON text written once


async def test_a_refused_record_in_a_durable_batch_fails_alone(store_url: str, records: Any) -> None:
    session = records.session()
    first = records.call(session.id)
    batch = [first, records.call(session.id, id=first.id), records.call(session.id)]  # the second repeats a key
    async with await Store.open(store_url, replica="refused") as store:
        store.session_started(session)
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tasks:  # enqueued together: one batch
                results: dict[int, bool] = {}

                async def record(index: int) -> None:
                    results[index] = await store.record_call_durable(batch[index])

                for index in range(len(batch)):
                    tasks.start_soon(record, index)
        assert results == {0: True, 1: False, 2: True}
        assert [row["id"] for row in await store.calls(CallFilter(session_id=session.id))] == [first.id, batch[2].id]
        row = await store.session(session.id)
        assert row is not None
        assert row["tool_call_count"] == 2
        assert store.dropped == 1
        assert store.health().unconfirmed == 0  # refused, not unconfirmed: the database answered


async def test_a_write_that_fails_leaves_nothing_of_its_batch_and_is_retried(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "retried.db"
    session = records.session()
    async with await Store.open(f"sqlite:///{path}", replica="retried") as store:
        store.session_started(session)
        calls = [records.call(session.id) for _ in range(5)]
        path.unlink()
        path.mkdir()  # the next write fails whole: no database can be opened there
        for call in calls:
            store.record_call(call)
        with anyio.fail_after(30):
            while store.health().failures == 0:
                await anyio.sleep(0.01)
        path.rmdir()
        with anyio.fail_after(30):
            await store.flush()
        # The batch went in once, whole, after the path could be recreated.
        assert [row["id"] for row in await store.calls(CallFilter(session_id=session.id))] == [
            call.id for call in calls
        ]
        row = await store.session(session.id)
        assert row is not None
        assert row["tool_call_count"] == 5


async def test_closing_the_store_stops_its_writer_thread(tmp_path: Path, records: Any) -> None:
    before = len(_writer_threads())
    for n in range(3):
        async with await Store.open(f"sqlite:///{tmp_path / f'{n}.db'}", replica="threads") as store:
            assert await store.record_call_durable(records.call(None)) is True
            assert len(_writer_threads()) == before + 1
    assert len(_writer_threads()) == before


async def test_a_store_that_never_recorded_starts_no_writer_thread(tmp_path: Path) -> None:
    before = len(_writer_threads())
    async with await Store.open(f"sqlite:///{tmp_path / 'idle.db'}", replica="idle", recover=False) as store:
        assert await store.recent_sessions() == []
        assert len(_writer_threads()) == before


async def test_the_writer_writes_a_sessions_stub_once_per_connection(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "stubs.db"
    await (await Store.open(f"sqlite:///{path}", replica="stubs")).close()
    writer = SqliteWriter(make_url(database_url(str(path))))
    session = records.session()
    ran: list[str] = []
    try:
        await writer.write(lambda: prepare([(CALL, records.call(session.id), None)], response_cap=200, replica="s"))
        await writer._run(lambda: writer._conn.driver_connection.set_trace_callback(ran.append))
        for _ in range(2):
            await writer.write(lambda: prepare([(CALL, records.call(session.id), None)], response_cap=200, replica="s"))
    finally:
        await writer.close()
    # After the first batch: each batch is its calls and its session's counters, no stub.
    assert [sql for sql in ran if sql.startswith("INSERT INTO sessions")] == []
    assert len([sql for sql in ran if sql.startswith("INSERT INTO tool_calls")]) >= 2
    rows = _rows(path)
    (row,) = rows["sessions"]
    tokens = sum(call["input_tokens"] + call["output_tokens"] for call in rows["tool_calls"])
    assert (row["tool_call_count"], row["total_tokens"]) == (3, tokens)


async def test_a_call_whose_session_was_deleted_after_the_writer_wrote_it_is_stored_with_it_again(
    tmp_path: Path, records: Any
) -> None:
    path = tmp_path / "deleted.db"
    await (await Store.open(f"sqlite:///{path}", replica="deleted")).close()
    writer = SqliteWriter(make_url(database_url(str(path))))
    session = records.session()
    try:
        await writer.write(lambda: prepare([(START, session, None)], response_cap=200, replica="d"))
        with contextlib.closing(sqlite3.connect(path)) as db:  # as retention does, from another connection
            db.execute("DELETE FROM sessions")
            db.commit()
        late = records.call(session.id)
        await writer.write(lambda: prepare([(CALL, late, None)], response_cap=200, replica="d"))
    finally:
        await writer.close()
    rows = _rows(path)
    assert [row["id"] for row in rows["tool_calls"]] == [late.id]
    assert [(row["id"], row["tool_call_count"]) for row in rows["sessions"]] == [(session.id, 1)]


class _Light:
    """A batch's preparation that says it is light (as the recorder's does for a few encoded records), made once
    and kept for retries as the recorder's is, noting the thread it is made on."""

    def __init__(self, items: list[Item]) -> None:
        self.items = items
        self.threads: list[threading.Thread] = []
        self.batch: Any = None

    def light(self) -> bool:
        return True

    def __call__(self) -> Any:
        if self.batch is None:
            self.threads.append(threading.current_thread())
            self.batch = prepare(self.items, response_cap=2000, replica="light")
        return self.batch


async def _opened(path: Path) -> SqliteWriter:
    """A writer on a fresh database that has written one batch (on its thread, which opens the loop's connection)."""
    await (await Store.open(f"sqlite:///{path}", replica="light")).close()
    writer = SqliteWriter(make_url(database_url(str(path))))
    await writer.write(_Light([]))
    return writer


async def test_a_light_batch_is_prepared_and_committed_on_the_event_loops_thread(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "light.db"
    writer = await _opened(path)
    session = records.session()
    first, second = _Light([(START, session, None)]), _Light([(CALL, records.call(session.id), None)])
    try:
        await writer.write(first)
        await writer.write(second)
    finally:
        await writer.close()
    assert first.threads + second.threads == [threading.current_thread()] * 2
    assert len(_rows(path)["tool_calls"]) == 1


async def test_a_light_batch_waits_for_a_write_lock_held_elsewhere_on_the_writers_thread(
    tmp_path: Path, records: Any
) -> None:
    path = tmp_path / "locked.db"
    writer = await _opened(path)
    batch = _Light([(CALL, records.call(None), None)])
    try:
        with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another process's write transaction
            with anyio.fail_after(30):
                async with anyio.create_task_group() as tasks:
                    tasks.start_soon(writer.write, batch)
                    while not writer._handed:  # tried on the loop, refused at once, handed to the thread
                        await anyio.sleep(0.01)
                    assert _rows(path)["tool_calls"] == []
                    other.execute("COMMIT")
    finally:
        await writer.close()
    assert len(_rows(path)["tool_calls"]) == 1
    assert batch.threads == [threading.current_thread()]  # prepared on the loop once, written by the thread as is


async def test_a_batch_refused_on_the_loop_raises_and_the_next_one_is_written(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "refused.db"
    writer = await _opened(path)
    call = records.call(None)
    try:
        await writer.write(_Light([(CALL, call, None)]))
        with pytest.raises(IntegrityError):
            await writer.write(_Light([(CALL, records.call(None, id=call.id), None)]))
        await writer.write(_Light([(CALL, records.call(None), None)]))
    finally:
        await writer.close()
    assert len(_rows(path)["tool_calls"]) == 2


async def test_what_the_loop_commits_is_checkpointed_into_the_database_by_the_writers_thread(
    tmp_path: Path, records: Any
) -> None:
    path = tmp_path / "checkpointed.db"
    writer = await _opened(path)
    size = path.stat().st_size
    try:
        for _ in range(CHECKPOINT_EVERY):
            await writer.write(_Light([(CALL, records.call(None, response={"text": "x" * 1000}), None)]))
        with anyio.fail_after(30):
            while path.stat().st_size == size:  # the WAL's pages copied into the database file
                await anyio.sleep(0.01)
    finally:
        await writer.close()
    assert len(_rows(path)["tool_calls"]) == CHECKPOINT_EVERY


async def test_the_event_loops_connection_neither_waits_for_a_lock_nor_checkpoints_by_itself(tmp_path: Path) -> None:
    writer = await _opened(tmp_path / "waits.db")
    names = ("busy_timeout", "wal_autocheckpoint", "cache_size", "journal_mode", "synchronous", "foreign_keys")
    try:
        raw = writer._loop_conn.driver_connection
        pragmas = [raw.execute(f"PRAGMA {name}").fetchone()[0] for name in names]
    finally:
        await writer.close()
    assert pragmas == [0, 0, -CACHE_KIB, "wal", 1, 1]  # and otherwise as the store's own connections are
