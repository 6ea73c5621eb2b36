"""Durable recording and the store's health: a returned call is committed, and trouble is reported."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest

import hintgate.store
from hintgate.store import RecordingSettings, Store

pytestmark = pytest.mark.anyio


async def test_a_durable_record_is_committed_when_the_call_returns(store_url: str, records: Any) -> None:
    async with await Store.open(store_url, replica="durable") as store:
        assert store.health().commit == "durable"
        call = records.call(None)
        with anyio.fail_after(30):
            assert await store.record_call_durable(call) is True
        # No flush: committed already, visible to any reader.
        assert await store.call(call.id) is not None
        health = store.health()
    assert (health.status, health.reason, health.backlog, health.unconfirmed) == ("ok", None, 0, 0)


async def test_concurrent_durable_records_are_all_committed_when_they_return(store_url: str, records: Any) -> None:
    calls = [records.call(None) for _ in range(200)]
    async with await Store.open(store_url, replica="durable") as store:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tasks:
                for call in calls:
                    tasks.start_soon(store.record_call_durable, call)
        rows = await store.calls(limit=1000)
    assert {row["id"] for row in rows} == {call.id for call in calls}


async def test_in_fast_mode_a_record_is_only_enqueued(tmp_path: Path, records: Any) -> None:
    url = f"sqlite:///{tmp_path / 'fast.db'}"
    async with await Store.open(url, RecordingSettings(commit="fast", commit_interval=30)) as store:
        call = records.call(None)
        assert await store.record_call_durable(call) is False
        health = store.health()
        assert (health.commit, health.backlog) == ("fast", 1)
        assert await store.call(call.id) is None  # the interval has not passed
        await store.flush()
        assert await store.call(call.id) is not None


async def test_a_call_whose_record_waits_on_a_locked_database_returns_anyway_and_is_counted(
    tmp_path: Path, records: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hintgate.store, "DURABLE_WAIT", 0.3)
    path = tmp_path / "locked.db"
    async with await Store.open(f"sqlite:///{path}") as store:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            call = records.call(None)
            with anyio.fail_after(10):
                assert await store.record_call_durable(call) is False
            health = store.health()
            assert (health.unconfirmed, health.backlog) == (1, 1)
        finally:
            other.execute("ROLLBACK")
            other.close()
        with anyio.fail_after(30):
            await store.flush()  # the record was kept and goes in once the lock is gone
        assert await store.call(call.id) is not None
        assert store.health().backlog == 0


async def test_calls_waiting_at_different_times_each_return_after_their_own_wait_and_each_is_counted_once(
    tmp_path: Path, records: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hintgate.store, "DURABLE_WAIT", 0.3)
    path = tmp_path / "locked.db"
    async with await Store.open(f"sqlite:///{path}") as store:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            first, cancelled, last = records.call(None), records.call(None), records.call(None)
            with anyio.fail_after(10):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(store.record_call_durable, cancelled)
                    await anyio.sleep(0)
                    tg.cancel_scope.cancel()  # its caller left: no call of its goes on to be counted
                async with anyio.create_task_group() as tg:
                    answers: list[bool] = []

                    async def durable(call: Any) -> None:
                        answers.append(await store.record_call_durable(call))

                    tg.start_soon(durable, first)
                    await anyio.sleep(0.2)  # the second starts waiting while the first waits
                    tg.start_soon(durable, last)
                assert (answers, store.health().unconfirmed) == ([False, False], 2)
        finally:
            other.execute("ROLLBACK")
            other.close()
        with anyio.fail_after(30):
            await store.flush()  # every record was kept
        for call in (first, cancelled, last):
            assert await store.call(call.id) is not None


async def test_a_deleted_database_file_is_reported_and_recreated(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "deleted.db"
    async with await Store.open(f"sqlite:///{path}", replica="deleter") as store:
        assert await store.record_call_durable(records.call(None)) is True
        path.unlink()  # the -wal and -shm files stay, as after a careless rm

        health = store.health()
        assert health.status == "degraded"
        assert "deleted" in (health.reason or "")

        after = records.call(None)
        with anyio.fail_after(30):
            assert await store.record_call_durable(after) is True
        assert path.exists()
        health = store.health()
        assert health.status == "degraded"
        assert "deleted" in (health.reason or "")
        assert "recreated" in (health.reason or "")

    async with await Store.open(f"sqlite:///{path}", recover=False) as reader:
        assert [row["id"] for row in await reader.calls()] == [after.id]


async def test_a_replaced_database_file_is_reported_and_the_new_file_used(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "replaced.db"
    backup = tmp_path / "backup.db"
    async with await Store.open(f"sqlite:///{path}", replica="replacer") as store:
        first = records.call(None)
        assert await store.record_call_durable(first) is True
        source, copy = sqlite3.connect(path), sqlite3.connect(backup)
        source.backup(copy)  # an operator's backup, taken now...
        source.close()
        copy.close()
        assert await store.record_call_durable(records.call(None)) is True
        os.replace(backup, path)  # ...and restored over the live file

        assert "replaced" in (store.health().reason or "")
        last = records.call(None)
        with anyio.fail_after(30):
            assert await store.record_call_durable(last) is True
        health = store.health()
        assert health.status == "degraded"
        assert "replaced" in (health.reason or "")

    async with await Store.open(f"sqlite:///{path}", recover=False) as reader:
        assert {row["id"] for row in await reader.calls()} == {first.id, last.id}


async def test_a_database_path_that_cannot_be_reopened_fails_writes_until_it_can(tmp_path: Path, records: Any) -> None:
    path = tmp_path / "gone.db"
    async with await Store.open(f"sqlite:///{path}", replica="gone") as store:
        path.unlink()
        path.mkdir()  # no database can be opened there now
        call = records.call(None)
        with anyio.fail_after(30):
            assert await store.record_call_durable(call) is False  # the call returns: availability first
        health = store.health()
        assert health.status == "degraded"
        assert (health.failures, health.unconfirmed, health.backlog) == (1, 1, 1)
        assert "cannot write" in (health.reason or "")

        shutil.rmtree(path)
        with anyio.fail_after(30):
            await store.flush()  # retried until the path could be recreated
        assert await store.call(call.id) is not None
        health = store.health()
        assert health.backlog == 0
        assert "cannot write" not in (health.reason or "")
