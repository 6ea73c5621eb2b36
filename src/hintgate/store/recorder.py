"""The off-path batch writer: what the gateway records, and how it reaches the database.

`Recorder.put` appends to an in-memory deque and returns: it never blocks,
never raises and does no serialization on the caller's path. A background task
commits what is pending every `commit_interval` seconds (sooner when a batch of
`batch_size` is ready, or when someone flushes or closes), one transaction per
batch. JSON encoding, size capping and token counting happen in a worker
thread (`asyncio.to_thread`), so neither the call nor the event loop pays for
them.

Durability: a record is in the database `commit_interval` plus one commit after
it was enqueued; a clean close drains everything. A database that is down is
retried with backoff while the deque (bounded by `max_pending`, oldest dropped
first and counted) holds on; a record the database refuses (a constraint, bad
text) is retried alone with its JSON replaced by a note, then dropped and
logged, so one bad record never costs its batch.

Order: one deque holds session starts, calls and session closes in the order
they happened, and each batch writes starts, then calls with their sessions'
counters (`SET n = n + :k`, atomic under concurrent writers), then closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DataError, IntegrityError, ProgrammingError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from hintgate.store.queries import begin_write
from hintgate.store.tables import UTCDateTime, sessions, tool_calls
from hintgate.store.tokens import count_tokens, output_text

__all__ = ["CallRecord", "Encoded", "Recorder", "RecorderFailed", "SessionRecord", "json_serializer"]

logger = logging.getLogger("hintgate.store")


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A client session as it starts (seed 001's MCPSession).

    Attributes:
        id: a UUID string; anything else raises `ValueError` here, at construction.
        client_name: `clientInfo.name` from the client's `initialize`.
        client_version: `clientInfo.version`.
        started_at: when the session began (an aware datetime; naive is taken as UTC).
        transport: `"stdio"` or `"http"`.
        replica: the gateway instance serving it (`Store.replica`).
    """

    id: str
    client_name: str | None
    client_version: str | None
    started_at: datetime
    transport: str
    replica: str

    def __post_init__(self) -> None:
        uuid.UUID(self.id)  # seed 001: the id must be a valid UUID


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One tool call as the gateway saw it (seed 001's ToolCallRecord).

    The store keeps references to `arguments` and `response` until the
    recorder has encoded them: do not mutate them after `record_call`.

    Attributes:
        id: unique per call (a UUID string by convention).
        session_id: the session it belongs to; a session not recorded yet is
            created from the call (active, no client details).
        server_id: the configured server the call went to.
        server_name: the name the server gave itself in `initialize`.
        tool_name: the name the gateway lists.
        upstream_tool: the name the server lists.
        arguments: the call's arguments.
        response: the `CallToolResult` JSON, `None` when there was none.
        error: what went wrong, for a failed call or an `isError` result.
        started_at: when the call started (aware; naive is taken as UTC).
        duration_ms: how long it took.
        request_id: the client's JSON-RPC request id.
        client_name: the client's name, denormalized for queries.
        client_version: the client's version.
        parent_call_id: the call that caused this one, if any.
        execution_type: `"direct"` or how else it ran.
        hints: `{"annotations": {...}, "provenance": {...}, "tier": ...}` in force at call time.
        tier: the tool's tier at call time.
        decision: the policy decision: `{"verdict", "reason", "source", "approver", "approval", "waited_ms"}`.
        verdict: the decision's verdict, a column of its own for filtering.
    """

    id: str
    session_id: str | None
    server_id: str
    server_name: str | None
    tool_name: str
    upstream_tool: str
    arguments: Mapping[str, Any] | None
    response: Mapping[str, Any] | None
    error: str | None
    started_at: datetime
    duration_ms: float
    request_id: str | None
    client_name: str | None
    client_version: str | None
    parent_call_id: str | None = None
    execution_type: str = "direct"
    hints: Mapping[str, Any] | None = None
    tier: str | None = None
    decision: Mapping[str, Any] | None = None
    verdict: str | None = None


class Encoded(str):
    """JSON text encoded already, which `json_serializer` passes through untouched."""

    __slots__ = ()


def json_serializer(value: Any) -> str:
    """The engine's JSON serializer: pre-encoded text as is, anything else compact JSON."""
    if isinstance(value, Encoded):
        return str.__str__(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


class RecorderFailed(RuntimeError):
    """The recorder task stopped on an unexpected error; nothing more will be written."""


_START, _CALL, _CLOSE = 0, 1, 2
Item = tuple[int, Any]

# PostgreSQL's JSONB refuses the NUL character (`\u0000`); an escape preceded by an
# even number of backslashes is a real NUL, an odd number is a literal backslash.
_NUL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(slots=True)
class Batch:
    """Rows ready for one transaction, prepared off the event loop."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    stubs: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    increments: list[dict[str, Any]] = field(default_factory=list)
    closes: list[dict[str, Any]] = field(default_factory=list)


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _clean(text: str | None) -> str | None:
    """Text a database accepts: no NUL, no lone surrogate."""
    if text is None:
        return None
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = _SURROGATE.sub("\ufffd", text)
    return text


def _dumps(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)
    except (TypeError, ValueError) as exc:
        text = json.dumps({"unencodable": str(exc)})
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: valid Python, not valid UTF-8
        text = _SURROGATE.sub("\ufffd", text)
    if "\\u0000" in text:
        text = _NUL_ESCAPE.sub(r"\1\\ufffd", text)
    return text


def _capped(text: str, cap: int) -> tuple[Encoded, int, bool]:
    """The JSON to store, the original size in bytes, and whether it was truncated.

    Over the cap, what is stored is a JSON string holding the first `cap` bytes of the JSON text.
    """
    data = text.encode("utf-8")
    if len(data) <= cap:
        return Encoded(text), len(data), False
    prefix = data[:cap].decode("utf-8", "ignore")
    return Encoded(json.dumps(prefix, ensure_ascii=False)), len(data), True


def _call_row(rec: CallRecord, cap: int, *, safe: bool = False) -> dict[str, Any]:
    arguments_json = None if rec.arguments is None else _dumps(rec.arguments)
    input_count = count_tokens(arguments_json or "")
    output_count = count_tokens(output_text(rec.response, rec.error))
    row: dict[str, Any] = {
        "id": _clean(rec.id),
        "session_id": rec.session_id,
        "server_id": _clean(rec.server_id),
        "server_name": _clean(rec.server_name),
        "tool_name": _clean(rec.tool_name),
        "upstream_tool": _clean(rec.upstream_tool),
        "arguments": None,
        "arguments_truncated": False,
        "arguments_size": None,
        "response": None,
        "response_truncated": False,
        "response_size": None,
        "response_cap": cap,
        "error": _clean(rec.error),
        "started_at": _utc(rec.started_at),
        "duration_ms": float(rec.duration_ms),
        "request_id": _clean(rec.request_id),
        "client_name": _clean(rec.client_name),
        "client_version": _clean(rec.client_version),
        "parent_call_id": _clean(rec.parent_call_id),
        "execution_type": _clean(rec.execution_type) or "direct",
        "hints": None if rec.hints is None else Encoded(_dumps(rec.hints)),
        "tier": _clean(rec.tier),
        "decision": None if rec.decision is None else Encoded(_dumps(rec.decision)),
        "verdict": _clean(rec.verdict),
        "input_tokens": input_count.tokens,
        "output_tokens": output_count.tokens,
        "tokens_estimated": input_count.estimated or output_count.estimated,
    }
    if arguments_json is not None:
        row["arguments"], row["arguments_size"], row["arguments_truncated"] = _capped(arguments_json, cap)
    if rec.response is not None:
        row["response"], row["response_size"], row["response_truncated"] = _capped(_dumps(rec.response), cap)
    if safe:
        note = Encoded(json.dumps({"unstorable": "the database refused this value; see the gateway's log"}))
        for column in ("arguments", "response", "hints", "decision"):
            if row[column] is not None:
                row[column] = note
    return row


def prepare(items: list[Item], *, response_cap: int, replica: str, safe: bool = False) -> Batch:
    """Turn queued items into rows: encode, cap, count tokens. CPU work, run in a worker thread."""
    batch = Batch()
    started: dict[str, dict[str, Any]] = {}
    stubs: dict[str, dict[str, Any]] = {}
    counts: dict[str, list[int]] = {}
    for kind, payload in items:
        if kind == _CALL:
            row = _call_row(payload, response_cap, safe=safe)
            session_id = row["session_id"]
            if session_id is not None:
                try:
                    uuid.UUID(session_id)
                except (ValueError, TypeError, AttributeError):
                    logger.warning(
                        "call %s names session %r, which is not a UUID; stored without it", row["id"], session_id
                    )
                    row["session_id"] = session_id = None
            if session_id is not None:
                if session_id not in started and session_id not in stubs:
                    stubs[session_id] = {"id": session_id, "started_at": row["started_at"], "replica": replica}
                tally = counts.setdefault(session_id, [0, 0])
                tally[0] += 1
                tally[1] += row["input_tokens"] + row["output_tokens"]
            batch.calls.append(row)
        elif kind == _START:
            rec: SessionRecord = payload
            started[rec.id] = {
                "id": rec.id,
                "client_name": _clean(rec.client_name),
                "client_version": _clean(rec.client_version),
                "started_at": _utc(rec.started_at),
                "transport": _clean(rec.transport),
                "replica": _clean(rec.replica),
            }
        else:
            session_id, ended_at = payload
            batch.closes.append({"sid": session_id, "ended": _utc(ended_at)})
    batch.sessions = list(started.values())
    batch.stubs = list(stubs.values())
    # A fixed order of row locks keeps two writers on one PostgreSQL database from deadlocking.
    batch.increments = [{"sid": sid, "n": n, "t": t} for sid, (n, t) in sorted(counts.items())]
    batch.closes.sort(key=lambda row: row["sid"])
    return batch


_INCREMENT = (
    update(sessions)
    .where(sessions.c.id == bindparam("sid"))
    .values(
        tool_call_count=sessions.c.tool_call_count + bindparam("n"),
        total_tokens=sessions.c.total_tokens + bindparam("t"),
    )
)
_CLOSE_SESSION = (
    update(sessions)
    .where(sessions.c.id == bindparam("sid"), sessions.c.status == "active")
    .values(status="closed", ended_at=bindparam("ended", type_=UTCDateTime))
)


async def write(conn: AsyncConnection, batch: Batch) -> None:
    """Write a prepared batch on `conn`, inside the caller's transaction."""
    insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
    if batch.sessions:
        upsert = insert(sessions)
        upsert = upsert.on_conflict_do_update(
            index_elements=[sessions.c.id],
            set_={
                c: upsert.excluded[c] for c in ("client_name", "client_version", "started_at", "transport", "replica")
            },
        )
        await conn.execute(upsert, batch.sessions)
    if batch.stubs:
        await conn.execute(insert(sessions).on_conflict_do_nothing(index_elements=[sessions.c.id]), batch.stubs)
    if batch.calls:
        await conn.execute(tool_calls.insert(), batch.calls)
    if batch.increments:
        await conn.execute(_INCREMENT, batch.increments)
    if batch.closes:
        await conn.execute(_CLOSE_SESSION, batch.closes)


_REFUSED = (IntegrityError, DataError, ProgrammingError, ValueError, TypeError, AttributeError, KeyError)
"""Errors that say the data is wrong (or cannot be prepared): retrying the same batch cannot help."""


class Recorder:
    """Batches records off the call path and commits them in the background.

    Call `put` from the event loop the recorder was started on.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        replica: str,
        response_cap: int,
        commit_interval: float,
        batch_size: int = 500,
        max_pending: int = 100_000,
        after_commit: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._engine = engine
        self._replica = replica
        self._cap = response_cap
        self._interval = commit_interval
        self._batch_size = batch_size
        self._pending: deque[Item] = deque(maxlen=max_pending)
        self._after_commit = after_commit
        self._enqueued = 0
        self._done = 0
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._urgent = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self.dropped = 0
        """Records lost: pushed out of a full queue, refused by the database, or left at a failed close."""

    def start(self) -> None:
        """Start the background task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hintgate-store-recorder")

    @property
    def pending(self) -> int:
        """Records enqueued and not yet committed (or dropped)."""
        return self._enqueued - self._done

    def put(self, kind: int, payload: Any) -> None:
        """Enqueue one item: O(1), never blocks, never raises."""
        pending = self._pending
        size = len(pending)
        if not size:
            self._wake.set()
        elif size >= self._batch_size:
            self._urgent.set()
            if size == pending.maxlen:
                self.dropped += 1  # the deque drops its oldest item on append
                self._done += 1
        pending.append((kind, payload))
        self._enqueued += 1

    def session_started(self, rec: SessionRecord) -> None:
        """Enqueue a session start."""
        self.put(_START, rec)

    def session_closed(self, session_id: str, ended_at: datetime) -> None:
        """Enqueue a session end."""
        self.put(_CLOSE, (session_id, ended_at))

    def record_call(self, rec: CallRecord) -> None:
        """Enqueue a call record."""
        self.put(_CALL, rec)

    async def flush(self) -> None:
        """Wait until everything enqueued so far is committed (or dropped).

        Raises:
            RecorderFailed: the recorder task died.
        """
        target = self._enqueued
        if self._done >= target:
            return
        self._check_alive()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((target, future))
        self._urgent.set()
        self._wake.set()
        await future

    async def close(self, timeout: float) -> int:
        """Commit everything pending and stop; return how many records were lost (0 unless the database failed)."""
        self._closing = True
        self._urgent.set()
        self._wake.set()
        task = self._task
        if task is not None and not task.done():
            try:
                async with asyncio.timeout(timeout):
                    await asyncio.shield(task)
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        lost = self._enqueued - self._done
        self.dropped += lost
        self._done = self._enqueued
        self._pending.clear()
        self._release_waiters(RecorderFailed("the store was closed before these records could be written"))
        return lost

    def _check_alive(self) -> None:
        task = self._task
        if task is None or task.done():
            raise RecorderFailed("the store's recorder is not running")

    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                if not self._pending:
                    if self._closing:
                        return
                    self._wake.clear()
                    continue
                if not (self._closing or self._urgent.is_set()):
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self._interval):
                            await self._urgent.wait()
                self._urgent.clear()
                while self._pending:
                    size = min(len(self._pending), self._batch_size)
                    items = [self._pending.popleft() for _ in range(size)]
                    await self._commit(items)
                    if self._after_commit is not None:
                        await self._after_commit()
                    self._done += size
                    self._release_waiters()
                if not self._closing:
                    self._wake.clear()
        except Exception as exc:  # a bug: say so loudly, and fail whoever waits rather than hang them
            logger.exception("the store's recorder stopped; calls are no longer recorded")
            self._release_waiters(RecorderFailed(f"the store's recorder stopped: {exc!r}"))

    def _release_waiters(self, error: BaseException | None = None) -> None:
        still: list[tuple[int, asyncio.Future[None]]] = []
        for target, future in self._waiters:
            if future.done():
                continue
            if error is not None:
                future.set_exception(error)
            elif self._done >= target:
                future.set_result(None)
            else:
                still.append((target, future))
        self._waiters = still

    async def _commit(self, items: list[Item]) -> None:
        try:
            batch = await asyncio.to_thread(prepare, items, response_cap=self._cap, replica=self._replica)
            await self._write(batch)
            return
        except _REFUSED as exc:
            if len(items) == 1:
                await self._commit_alone(items[0], exc)
                return
            logger.warning(
                "the database refused a batch of %d records (%s); writing them one by one", len(items), _reason(exc)
            )
        for item in items:
            await self._commit_alone(item, None)

    async def _commit_alone(self, item: Item, refused: BaseException | None) -> None:
        """Write one item in its own transaction; if refused, once more with its JSON replaced by a note."""
        error = refused
        if error is None:
            try:
                await self._write(
                    await asyncio.to_thread(prepare, [item], response_cap=self._cap, replica=self._replica)
                )
                return
            except _REFUSED as exc:
                error = exc
        try:
            batch = await asyncio.to_thread(prepare, [item], response_cap=self._cap, replica=self._replica, safe=True)
            await self._write(batch)
        except _REFUSED as exc:
            self.dropped += 1
            logger.error("a %s record was dropped: the database refused it (%s)", _KINDS[item[0]], _reason(exc))
            return
        logger.error(
            "a %s record was stored without its JSON: the database refused it (%s)", _KINDS[item[0]], _reason(error)
        )

    async def _write(self, batch: Batch) -> None:
        """Commit `batch` in one transaction, retrying while the database is unreachable or busy.

        Raises:
            IntegrityError: or another of `_REFUSED`, when the database refuses the data itself.
        """
        delay = 0.05
        failing_since: float | None = None
        while True:
            try:
                async with begin_write(self._engine) as conn:
                    await write(conn, batch)
            except _REFUSED:
                raise
            except (SQLAlchemyError, OSError) as exc:
                if failing_since is None:
                    failing_since = time.monotonic()
                    logger.warning("cannot write to the database (%s); retrying", _reason(exc))
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            if failing_since is not None:
                logger.warning("the database is writable again after %.1f s", time.monotonic() - failing_since)
            return


_KINDS = {_START: "session start", _CALL: "tool call", _CLOSE: "session close"}


def _reason(exc: BaseException | None) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0] if exc is not None else "unknown"
