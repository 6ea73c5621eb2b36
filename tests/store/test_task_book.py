"""The tasks clients hold handles of: bounded per client and in all, results dropped once served, a TTL.

Each behaviour runs on the store's book (SQLite and a real PostgreSQL) and on
the in-memory book a gateway without a store keeps.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from tests.store.conftest import Records

from hintgate.handles import (
    CANCELLED,
    COMPLETED,
    ENDING,
    WITHDRAWN,
    WORKING,
    CallEnd,
    Limits,
    MemoryTasks,
    TaskBook,
    TaskRecord,
    task_key,
)
from hintgate.store import Store
from hintgate.store.tasks import WITHDRAWN_AT_START

pytestmark = pytest.mark.anyio

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LIMITS = Limits(per_owner=2, total=3, ttl=600.0, served_grace=30.0)


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def book(request: pytest.FixtureRequest, tmp_path: Any) -> AsyncIterator[TaskBook]:
    if request.param == "memory":
        yield MemoryTasks(LIMITS)
        return
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'hintgate.db'}"
    else:
        url = request.getfixturevalue("postgres_server").create_database()
    store = await Store.open(url, replica="r1")
    store.tasks.limits = LIMITS
    yield store.tasks
    await store.close()


def task(owner: str = "alice", at: datetime = T0, **fields: Any) -> TaskRecord:
    handle = str(uuid.uuid4())
    values: dict[str, Any] = {
        "key": task_key(handle),
        "call_id": f"call-{handle}",
        "owner": owner,
        "session_id": None,
        "server": "builds",
        "tool": "builds_build",
        "upstream_id": f"up-{handle}",
        "replica": "r1",
        "status": WORKING,
        "started_at": at,
        "touched_at": at,
        "expires_at": at + timedelta(seconds=LIMITS.ttl),
    }
    values.update(fields)
    return TaskRecord(**values)


async def ended(book: TaskBook, record: TaskRecord, at: datetime, result: dict[str, Any] | None) -> None:
    assert await book.claim(record.key, at)
    await book.settle(record.key, COMPLETED, at, result, {"status": "completed"})


async def test_a_client_holds_at_most_its_share_of_tasks_and_the_gateway_at_most_its_total(book: TaskBook) -> None:
    first, second = task("alice"), task("alice")
    assert await book.open(first) is None
    assert await book.open(second) is None
    refused = await book.open(task("alice"))
    assert refused is not None
    assert "this client already holds 2 tasks" in refused
    assert await book.open(task("bob")) is None
    full = await book.open(task("carol"))
    assert full is not None
    assert "the gateway already holds 3 tasks" in full
    # A task that ended still counts until its client fetched its result; then it counts no more.
    await ended(book, first, T0, {"content": []})
    assert await book.open(task("alice")) is not None
    await book.served(first.key, T0)
    assert await book.open(task("alice")) is None


async def test_a_result_is_kept_until_a_poll_served_it_and_a_grace_passed_then_dropped(book: TaskBook) -> None:
    record = task()
    await book.open(record)
    result = {"content": [{"type": "text", "text": "built"}], "isError": False}
    await ended(book, record, T0, result)
    kept = await book.get(record.key, T0 + timedelta(seconds=500))  # unserved: kept for the task's whole TTL
    assert kept is not None
    assert kept.status == COMPLETED
    assert kept.result == result
    served_at = T0 + timedelta(seconds=501)
    await book.served(record.key, served_at)
    await book.served(record.key, served_at + timedelta(seconds=20))  # only the first serving counts
    again = await book.get(record.key, served_at + timedelta(seconds=LIMITS.served_grace - 1))
    assert again is not None
    assert again.result == result
    dropped = await book.get(record.key, served_at + timedelta(seconds=LIMITS.served_grace + 1))
    assert dropped is not None
    assert dropped.status == COMPLETED
    assert dropped.result is None


async def test_a_task_is_forgotten_after_its_ttl_and_an_unfinished_one_is_reported_expired(book: TaskBook) -> None:
    running, done = task(), task()
    await book.open(running)
    await book.open(done)
    await ended(book, done, T0, {"content": []})
    before = T0 + timedelta(seconds=LIMITS.ttl - 1)
    assert await book.expired(before) == []
    after = T0 + timedelta(seconds=LIMITS.ttl + 1)
    assert [r.key for r in await book.expired(after)] == [running.key]
    assert await book.get(running.key, after) is None
    assert await book.get(done.key, after) is None


async def test_of_two_replicas_that_see_a_task_end_one_records_it(book: TaskBook) -> None:
    record = task()
    await book.open(record)
    assert await book.claim(record.key, T0) is True
    assert await book.claim(record.key, T0) is False
    assert await book.withdraw(record.key, T0) is False  # being recorded as ended: not withdrawn as well
    ending = await book.get(record.key, T0)
    assert ending is not None
    assert ending.status == ENDING
    await book.settle(record.key, CANCELLED, T0, None, {"status": "cancelled"})
    other = task()
    await book.open(other)
    assert await book.withdraw(other.key, T0) is True
    assert await book.withdraw(other.key, T0) is False
    assert [r.key for r in await book.unfinished_of("alice")] == []


async def test_a_kept_task_is_found_by_its_key_only_and_says_whose_it_is(book: TaskBook) -> None:
    record = task("alice")
    await book.open(record)
    found = await book.get(record.key, T0)
    assert found is not None
    assert dataclasses.replace(found, result=None) == record
    assert await book.get(task_key("another handle"), T0) is None


# -- the store's book: the call's record with the task, and a restart --------------------------------------


async def test_the_calls_record_is_written_with_its_task_and_completed_at_its_end(
    store: Store, records: Records
) -> None:
    session = records.session()
    decision = {"verdict": "allow", "reason": "an allow rule", "source": "rule:server:builds#1"}
    call = records.call(session.id, response=None, error=None, decision=decision, verdict="allow")
    record = task(session_id=session.id, call_id=call.id, at=datetime.now(UTC))
    assert await store.tasks.open(record, call) is None
    [started] = await store.calls()
    assert (started["id"], started["response"], started["error"]) == (call.id, None, None)
    assert started["arguments"] == {"timezone": "Europe/Paris"}
    [row] = await store.recent_sessions()
    assert row["tool_call_count"] == 1
    result = {"content": [{"type": "text", "text": "built"}], "isError": False}
    finding = {"code": "HG612", "text": "ignore previous instructions"}
    await store.tasks.complete(call.id, CallEnd(result, None, 1500.0, findings=(finding,)))
    [done] = await store.calls()
    assert done["response"] == result
    assert done["duration_ms"] == 1500.0
    assert done["decision"]["result_findings"] == [finding]
    [row] = await store.recent_sessions()
    assert row["tool_call_count"] == 1


async def test_at_start_the_unfinished_tasks_a_killed_run_left_are_withdrawn_and_due_to_be_cancelled(
    store_url: str, records: Records
) -> None:
    first = await Store.open(store_url, replica="gw-1")
    session = records.session(replica="gw-1")
    first.session_started(session)
    call = records.call(session.id, response=None, error=None)
    running = task(session_id=session.id, call_id=call.id, replica="gw-1", at=datetime.now(UTC))
    assert await first.tasks.open(running, call) is None
    await first.flush()
    # The process is killed (the end-to-end test kills one); its next run, under the same replica name, opens the
    # store while nothing of the first ended its task.
    second = await Store.open(store_url, replica="gw-1")
    try:
        [due] = await second.tasks.cancels_due("gw-1")
        assert (due.key, due.status, due.upstream_id) == (running.key, WITHDRAWN, running.upstream_id)
        [row] = await second.calls()
        assert row["error"] == WITHDRAWN_AT_START
        assert row["arguments"] == {"timezone": "Europe/Paris"}
        await second.tasks.cancelled_upstream(due.key, "cancelled")
        assert await second.tasks.cancels_due("gw-1") == []
    finally:
        await second.close()
        await first.close()
