"""The task handles the gateway gave its clients: what is kept of each, its bounds, and the book that keeps them.

A call an upstream answers with a task (the Tasks extension) is handed to a
2026-07-28 client as a handle of the gateway's own (`hintgate.server.tasks`).
What the gateway must remember of it until the client has its result is one
`TaskRecord`, kept in a `TaskBook`: the store's (`hintgate.store.tasks`, shared
by every replica on one database, so any replica answers `tasks/get`), or
`MemoryTasks` for a gateway without a store.

The book is bounded and forgets: a client (the owner: its person, client
name and version, view) holds at most `Limits.per_owner` tasks that are
running or whose result waits to be fetched, the gateway at most
`Limits.total` (a result fetched counts no more); a completed task's result is dropped `Limits.served_grace`
seconds after a `tasks/get` first served it (a poll repeated because its
answer was lost still gets it), and a task is forgotten `Limits.ttl` seconds
after it started (an unfinished one is withdrawn then). The handle itself is
never kept: a record is found by the handle's SHA-256 (`task_key`), so a
reader of the database learns no handle a client could use.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

__all__ = [
    "CANCELLED",
    "COMPLETED",
    "ENDING",
    "FAILED",
    "UNFINISHED",
    "WITHDRAWN",
    "WORKING",
    "CallEnd",
    "Limits",
    "MemoryTasks",
    "TaskBook",
    "TaskRecord",
    "over_bounds",
    "task_key",
]

WORKING = "working"
"""Running upstream (the task's own status may be `working` or `input_required`)."""
ENDING = "ending"
"""Seen to end by one replica, which is recording it now; no other may."""
COMPLETED = "completed"
FAILED = "failed"
CANCELLED = "cancelled"
WITHDRAWN = "withdrawn"
"""Its client went away, its time ran out, or its gateway stopped while it ran: cancelled upstream where possible."""
UNFINISHED = (WORKING, ENDING)


def task_key(task_id: str) -> str:
    """The key a handle's record is kept under: the handle's SHA-256, in hex."""
    return hashlib.sha256(task_id.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class CallEnd:
    """How a task's call ended, for its record.

    Attributes:
        response: the result as recorded (redacted), None for an error or a withheld result.
        error: why it failed, or was withheld; None when it succeeded.
        duration_ms: from the call's start to the task's end.
        findings: what the result scan found in the result.
        action: what the scan's findings did to the result (`mark`, `redact`, `block`), when it found any.
    """

    response: Mapping[str, Any] | None
    error: str | None
    duration_ms: float
    findings: tuple[Mapping[str, Any], ...] = ()
    action: str | None = None


@dataclass(frozen=True, slots=True)
class Limits:
    """How much the book keeps.

    Attributes:
        per_owner: tasks one client may hold at once (running, or a result not fetched yet).
        total: such tasks of every client together.
        ttl: seconds a task is kept after it started; an unfinished one is withdrawn then.
        served_grace: seconds a completed task's result is kept after a `tasks/get` first served it.
    """

    per_owner: int = 64
    total: int = 4096
    ttl: float = 3600.0
    served_grace: float = 60.0


@dataclass(frozen=True, slots=True)
class TaskRecord:
    """One task a client holds a handle of, as the book keeps it.

    Attributes:
        key: `task_key` of the handle.
        call_id: the call's record (`tool_calls.id`), written when the handle went out.
        owner: who may use the handle: the owner key of the session that made the call (its person, client
            name and version, view), the same on every replica.
        session_id: that session (on the replica that started it).
        server: the server that issued the task.
        tool: the tool's public name.
        upstream_id: the server's own id of the task (never shown to a client).
        replica: the replica that started it.
        status: one of `WORKING`, `ENDING`, `COMPLETED`, `FAILED`, `CANCELLED`, `WITHDRAWN`.
        started_at: when the call started (UTC).
        touched_at: the last request of its client about it (any replica).
        expires_at: when it is forgotten (`Limits.ttl` after it started).
        result: the tool's result as the client gets it (scanned), once completed, until dropped.
        answer: the server's last terminal answer without its result (a failed task's error).
        served_at: when a `tasks/get` first served the result.
    """

    key: str
    call_id: str
    owner: str
    session_id: str | None
    server: str
    tool: str
    upstream_id: str
    replica: str
    status: str
    started_at: datetime
    touched_at: datetime
    expires_at: datetime
    result: Mapping[str, Any] | None = None
    answer: Mapping[str, Any] | None = None
    served_at: datetime | None = None

    @property
    def unfinished(self) -> bool:
        """Whether it runs (or is being recorded as ended)."""
        return self.status in UNFINISHED

    def holds(self) -> bool:
        """Whether it counts against the bounds: running, or a result its client has not fetched.

        A result served is kept only for the grace of a repeated poll, and counts no more.
        """
        return self.unfinished or (self.result is not None and self.served_at is None)

    def kept_result(self, now: datetime, limits: Limits) -> Mapping[str, Any] | None:
        """Its result, unless it was served more than `served_grace` seconds ago."""
        if self.served_at is not None and now - self.served_at > timedelta(seconds=limits.served_grace):
            return None
        return self.result


class TaskBook(Protocol):
    """Where the gateway keeps its tasks (`hintgate.store.tasks.StoredTasks`, or `MemoryTasks`).

    Every change of status is conditional (a status it must be in), so that of two replicas that see a task
    end at once, one records it.
    """

    limits: Limits

    async def open(self, record: TaskRecord, call: Any = None) -> str | None:
        """Keep `record`, with `call` (the store's `CallRecord` of the call so far) when the book keeps calls.

        Returns:
            None when kept; else why not (a bound reached), in a sentence for the client.
        """

    async def get(self, key: str, now: datetime) -> TaskRecord | None:
        """The record of `key`, unless it expired; its result as `kept_result` has it."""

    async def touch(self, key: str, now: datetime) -> None:
        """Its client asked about it now."""

    async def claim(self, key: str, now: datetime) -> bool:
        """`WORKING` → `ENDING`: True for the one caller that may record its end."""

    async def settle(
        self, key: str, status: str, now: datetime, result: Mapping[str, Any] | None, answer: Mapping[str, Any] | None
    ) -> None:
        """`ENDING` → `status` (terminal), with the result the client gets and the server's answer."""

    async def withdraw(self, key: str, now: datetime) -> bool:
        """`WORKING` → `WITHDRAWN`: True for the one caller that may record it withdrawn."""

    async def served(self, key: str, now: datetime) -> None:
        """A `tasks/get` served its result now (the first time counts)."""

    async def unfinished_of(self, owner: str) -> list[TaskRecord]:
        """The unfinished tasks of `owner`."""

    async def expired(self, now: datetime) -> list[TaskRecord]:
        """The unfinished tasks whose time ran out; forgets the ended ones whose time ran out."""

    async def complete(self, call_id: str, end: CallEnd) -> None:
        """Write the end of the call's record (nothing when the book keeps no calls)."""


class MemoryTasks:
    """A `TaskBook` in this process's memory, for a gateway without a store: bounded and forgetting as any."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self._records: dict[str, TaskRecord] = {}

    def __len__(self) -> int:
        return len(self._records)

    def _forget_old(self, now: datetime) -> None:
        """Drop expired records and served results past their grace (what `open` must not count)."""
        for key, record in list(self._records.items()):
            if not record.unfinished and record.expires_at <= now:
                del self._records[key]
            elif record.result is not None and record.kept_result(now, self.limits) is None:
                self._records[key] = dataclasses.replace(record, result=None)

    async def open(self, record: TaskRecord, call: Any = None) -> str | None:
        self._forget_old(record.started_at)
        now, limits = record.started_at, self.limits
        held = [r for r in self._records.values() if r.holds() and r.expires_at > now]
        refusal = over_bounds(sum(1 for r in held if r.owner == record.owner), len(held), limits)
        if refusal is None:
            self._records[record.key] = record
        return refusal

    async def get(self, key: str, now: datetime) -> TaskRecord | None:
        record = self._records.get(key)
        if record is None or record.expires_at <= now:
            return None
        kept = record.kept_result(now, self.limits)
        return record if kept is record.result else dataclasses.replace(record, result=kept)

    async def touch(self, key: str, now: datetime) -> None:
        record = self._records.get(key)
        if record is not None:
            self._records[key] = dataclasses.replace(record, touched_at=now)

    async def claim(self, key: str, now: datetime) -> bool:
        return self._move(key, (WORKING,), ENDING, touched_at=now)

    async def settle(
        self, key: str, status: str, now: datetime, result: Mapping[str, Any] | None, answer: Mapping[str, Any] | None
    ) -> None:
        self._move(key, (ENDING,), status, result=result, answer=answer)

    async def withdraw(self, key: str, now: datetime) -> bool:
        return self._move(key, (WORKING,), WITHDRAWN)

    async def served(self, key: str, now: datetime) -> None:
        record = self._records.get(key)
        if record is not None and record.served_at is None and record.result is not None:
            self._records[key] = dataclasses.replace(record, served_at=now)

    async def unfinished_of(self, owner: str) -> list[TaskRecord]:
        return [r for r in self._records.values() if r.owner == owner and r.unfinished]

    async def expired(self, now: datetime) -> list[TaskRecord]:
        self._forget_old(now)
        return [r for r in self._records.values() if r.unfinished and r.expires_at <= now]

    async def complete(self, call_id: str, end: CallEnd) -> None:
        """Nothing: without a store the call is recorded nowhere."""

    def _move(self, key: str, before: tuple[str, ...], after: str, **changes: Any) -> bool:
        record = self._records.get(key)
        if record is None or record.status not in before:
            return False
        self._records[key] = dataclasses.replace(record, status=after, **changes)
        return True


def over_bounds(owner_holds: int, total_holds: int, limits: Limits) -> str | None:
    """Why one more task cannot be kept with `owner_holds` of its client's and `total_holds` in all, or None."""
    if owner_holds >= limits.per_owner:
        return (
            f"this client already holds {owner_holds} tasks (running, or with a result not fetched yet), the most "
            "one client may; fetch or cancel one first"
        )
    if total_holds >= limits.total:
        return f"the gateway already holds {total_holds} tasks, the most it keeps; try again later"
    return None
