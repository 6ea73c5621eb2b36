"""The tasks clients hold handles of, kept in the store: any replica answers them, and a restart loses none.

`StoredTasks` is the store's `hintgate.handles.TaskBook`. A task is kept in
one transaction with its call's record (`tool_calls`, the decision, approver
and arguments, its session counted) before its handle goes to the client, so
a `kill -9` after that leaves both; its end updates that record. Every change
of a task's status is one `UPDATE ... WHERE status IN (...)`, so of two
replicas that see it end at once one records it. Opening a task takes a
transaction-scoped lock on PostgreSQL (SQLite's write transactions are
serial already), so the bounds hold across replicas.

At start (`withdraw_abandoned`, from `Store.open`) the unfinished tasks of
the replicas that are gone (this one's earlier run, a dead process of this
host) are withdrawn and their records say so; the gateway then cancels them
upstream where the server still runs (`hintgate.server.tasks`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import URL, Row, and_, delete, func, insert, or_, select, text, update

from hintgate.handles import ENDING, UNFINISHED, WITHDRAWN, WORKING, CallEnd, Limits, TaskRecord, over_bounds
from hintgate.store.async_core import AsyncConnection, AsyncEngine
from hintgate.store.part import StorePart
from hintgate.store.rows import CallRecord, call_row, completion_values
from hintgate.store.tables import sessions, tasks, tool_calls, upsert

__all__ = ["TASK_LOCK", "WITHDRAWN_AT_START", "StoredTasks", "unfinished_replicas", "withdraw_abandoned"]

TASK_LOCK = 0x68677461736B73
"""The PostgreSQL advisory lock opening a task takes (a constant of hintgate's own, "hgtasks")."""

WITHDRAWN_AT_START = (
    "withdrawn: the gateway stopped while its task ran; at its next start it was cancelled upstream where the "
    "server still ran"
)
"""The error on record of a task whose gateway stopped (killed, crashed) before it ended."""


def _record(row: Row[Any]) -> TaskRecord:
    values = row._mapping
    return TaskRecord(
        key=values["key"],
        call_id=values["call_id"],
        owner=values["owner"],
        session_id=values["session_id"],
        server=values["server"],
        tool=values["tool"],
        upstream_id=values["upstream_id"],
        replica=values["replica"],
        status=values["status"],
        started_at=values["started_at"],
        touched_at=values["touched_at"],
        expires_at=values["expires_at"],
        result=values["result"],
        answer=values["answer"],
        served_at=values["served_at"],
    )


def _holds(now: datetime) -> Any:
    """The rows that count against the bounds: unexpired, and running or holding a result not fetched yet."""
    unfetched = and_(tasks.c.result.is_not(None), tasks.c.served_at.is_(None))
    return and_(tasks.c.expires_at > now, or_(tasks.c.status.in_(UNFINISHED), unfetched))


class StoredTasks(StorePart):
    """The store's tasks (`Store.tasks`), a `hintgate.handles.TaskBook`.

    Args:
        engine: the store's engine.
        url: its URL, to name the database in errors.
        response_cap: bytes of a call's response JSON its record keeps.
        limits: the bounds, the TTL and the grace of a served result.
    """

    def __init__(self, engine: AsyncEngine, url: URL, *, response_cap: int, limits: Limits | None = None) -> None:
        super().__init__(engine, url)
        self._cap = response_cap
        self.limits = limits or Limits()

    async def _forget_old(self, conn: AsyncConnection, now: datetime) -> None:
        """Drop the ended tasks whose time ran out and the results served longer ago than the grace."""
        await conn.execute(delete(tasks).where(tasks.c.status.not_in(UNFINISHED), tasks.c.expires_at <= now))
        grace = now - timedelta(seconds=self.limits.served_grace)
        await conn.execute(
            update(tasks).where(tasks.c.result.is_not(None), tasks.c.served_at < grace).values(result=None)
        )

    async def open(self, record: TaskRecord, call: Any = None) -> str | None:
        """Keep `record` and `call` (a `CallRecord`: the call's record so far) in one transaction, within bounds."""
        now = record.started_at
        async with self.writing("keep a task in") as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": TASK_LOCK})
            await self._forget_old(conn, now)
            held = _holds(now)
            total = (await conn.execute(select(func.count()).select_from(tasks).where(held))).scalar_one()
            mine = (
                await conn.execute(select(func.count()).select_from(tasks).where(held, tasks.c.owner == record.owner))
            ).scalar_one()
            refusal = over_bounds(mine, total, self.limits)
            if refusal is not None:
                return refusal
            if isinstance(call, CallRecord):
                await _insert_call(conn, call, self._cap, replica=record.replica)
            await conn.execute(insert(tasks).values(_row(record)))
        return None

    async def get(self, key: str, now: datetime) -> TaskRecord | None:
        async with self.reading("read a task from") as conn:
            row = (await conn.execute(select(tasks).where(tasks.c.key == key, tasks.c.expires_at > now))).first()
        if row is None:
            return None
        record = _record(row)
        kept = record.kept_result(now, self.limits)
        if kept is record.result:
            return record
        return dataclasses.replace(record, result=kept)

    async def touch(self, key: str, now: datetime) -> None:
        await self._update(key, None, touched_at=now)

    async def claim(self, key: str, now: datetime) -> bool:
        return await self._update(key, (WORKING,), status=ENDING, touched_at=now)

    async def settle(
        self, key: str, status: str, now: datetime, result: Mapping[str, Any] | None, answer: Mapping[str, Any] | None
    ) -> None:
        await self._update(key, (ENDING,), status=status, result=result, answer=answer)

    async def withdraw(self, key: str, now: datetime) -> bool:
        return await self._update(key, (WORKING,), status=WITHDRAWN)

    async def served(self, key: str, now: datetime) -> None:
        async with self.writing("mark a task's result served in") as conn:
            await conn.execute(
                update(tasks)
                .where(tasks.c.key == key, tasks.c.served_at.is_(None), tasks.c.result.is_not(None))
                .values(served_at=now)
            )

    async def unfinished_of(self, owner: str) -> list[TaskRecord]:
        query = select(tasks).where(tasks.c.owner == owner, tasks.c.status.in_(UNFINISHED))
        return await self._select(query, "read a client's tasks from")

    async def expired(self, now: datetime) -> list[TaskRecord]:
        async with self.writing("forget old tasks in") as conn:
            await self._forget_old(conn, now)
        query = select(tasks).where(tasks.c.status.in_(UNFINISHED), tasks.c.expires_at <= now)
        return await self._select(query, "read expired tasks from")

    async def cancels_due(self, replica: str) -> list[TaskRecord]:
        """The tasks withdrawn when `replica` started (its own earlier run's, or a dead one's it took over)."""
        query = select(tasks).where(tasks.c.replica == replica, tasks.c.cancel_due.is_(True))
        return await self._select(query, "read withdrawn tasks from")

    async def cancelled_upstream(self, key: str, outcome: str) -> None:
        """Note what cancelling upstream a task withdrawn at start came to; it is not cancelled again."""
        async with self.writing("update a task in") as conn:
            await conn.execute(
                update(tasks).where(tasks.c.key == key).values(cancel_due=False, answer={"cancel": outcome})
            )

    async def complete(self, call_id: str, end: CallEnd) -> None:
        async with self.writing("record a task's end in") as conn:
            stored = (
                await conn.execute(select(tool_calls.c.decision).where(tool_calls.c.id == call_id))
            ).scalar_one_or_none()
            decision = dict(stored) if isinstance(stored, Mapping) else None
            if decision is not None and end.findings:
                decision.update(result_findings=list(end.findings), result_action=end.action)
            values = completion_values(end.response, end.error, end.duration_ms, decision, self._cap)
            await conn.execute(update(tool_calls).where(tool_calls.c.id == call_id).values(**values))

    async def _update(self, key: str, before: Sequence[str] | None, **values: Any) -> bool:
        condition = [tasks.c.key == key]
        if before is not None:
            condition.append(tasks.c.status.in_(before))
        async with self.writing("update a task in") as conn:
            done = await conn.execute(update(tasks).where(*condition).values(**values))
        return bool(done.rowcount)

    async def _select(self, query: Any, doing: str) -> list[TaskRecord]:
        async with self.reading(doing) as conn:
            return [_record(row) for row in await conn.execute(query)]


def _row(record: TaskRecord) -> dict[str, Any]:
    return {field.name: getattr(record, field.name) for field in dataclasses.fields(record)}


async def _insert_call(conn: AsyncConnection, call: CallRecord, cap: int, *, replica: str) -> None:
    """The call's record as of its start, its session created if not recorded yet and counted."""
    row = call_row(call, cap)
    session_id = row["session_id"]
    if session_id is not None:
        stub = upsert(sessions, conn.dialect.name).on_conflict_do_nothing(index_elements=[sessions.c.id])
        await conn.execute(stub, [{"id": session_id, "started_at": row["started_at"], "replica": replica}])
    # The JSON columns are encoded already (`Encoded`), as the recorder writes them.
    await conn.execute(insert(tool_calls), [row])
    if session_id is not None:
        await conn.execute(
            update(sessions)
            .where(sessions.c.id == session_id)
            .values(
                tool_call_count=sessions.c.tool_call_count + 1,
                total_tokens=sessions.c.total_tokens + row["input_tokens"] + row["output_tokens"],
            )
        )


async def unfinished_replicas(conn: AsyncConnection, *, prefix: str) -> list[str]:
    """The replicas whose names start with `prefix` that started tasks still unfinished."""
    query = select(tasks.c.replica).where(tasks.c.status.in_(UNFINISHED), tasks.c.replica.startswith(prefix))
    return sorted({row[0] for row in await conn.execute(query.distinct())})


async def withdraw_abandoned(conn: AsyncConnection, replicas: Sequence[str], *, now: datetime) -> int:
    """Withdraw the unfinished tasks the gone `replicas` started, and say so in their calls' records.

    Returns:
        How many were withdrawn; the replica that opens the store takes them over to cancel them upstream.
    """
    if not replicas:
        return 0
    found = list(
        await conn.execute(
            select(tasks.c.key, tasks.c.call_id, tasks.c.started_at).where(
                tasks.c.replica.in_(replicas), tasks.c.status.in_(UNFINISHED)
            )
        )
    )
    for key, call_id, started_at in found:
        await conn.execute(
            update(tool_calls)
            .where(tool_calls.c.id == call_id, tool_calls.c.error.is_(None), tool_calls.c.response.is_(None))
            .values(error=WITHDRAWN_AT_START, duration_ms=max(0.0, (now - started_at).total_seconds() * 1000))
        )
        await conn.execute(update(tasks).where(tasks.c.key == key).values(status=WITHDRAWN, cancel_due=True))
    if found and len(replicas) > 1:
        # Taken over by the first (the replica opening the store), which cancels them upstream.
        await conn.execute(
            update(tasks).where(tasks.c.key.in_([key for key, _, _ in found])).values(replica=replicas[0])
        )
    return len(found)
