"""The off-path batch writer: what the gateway records, and how it reaches the database.

`Recorder.put` appends to an in-memory deque and returns: it never blocks,
never raises and does no serialization on the caller's path. A background task
commits what is pending, one transaction per batch. JSON encoding, size
capping and token counting happen off the event loop, with the write: on a
SQLite file, preparing and committing a batch is one hop to the store's
writer thread (`hintgate.store.writer`); elsewhere (PostgreSQL, in-memory
SQLite) the batch is prepared in a worker thread (`asyncio.to_thread`) and
written through the async engine. Either way neither the call nor the event
loop pays for the encoding, and a batch is prepared once however often its
write is retried. The one exception is a light batch on a SQLite file (a few
records whose JSON the gateway encoded already, `_Prepared.light`): the
writer may prepare and commit it on the loop's thread, where it costs less
than the hop (see `hintgate.store.writer`).

Two modes:

- durable (the default), a group commit: the task commits as soon as it is
  free, taking everything that arrived meanwhile as one batch (and what
  arrives until the batch is prepared, off the loop), and
  `put_and_wait` gives the caller a future that resolves when its record is
  committed. A gateway releases a call's result only then: a call that
  returned is in the database, even after a `kill -9`. A call recorded while
  nothing else is queued or written, light enough for the loop, is committed in
  its caller's step instead (`record_call_now`): the same transaction, without
  the task woken and the caller woken back. While other calls still run
  (`siblings`, the gateway's count of calls in progress), the task holds a
  batch up to `window` (`COMMIT_WINDOW`, 3 ms) for their records, so that
  concurrent calls share one commit rather than one each: their answers wait
  for it as before, so a `kill -9` still loses no call that returned; what the
  window costs is latency (a held call's answer leaves up to `window` later)
  and, for a call that ran upstream but whose answer had not left yet, up to
  `window` more of the time in which a kill leaves it off the record.
- fast: the task commits every `commit_interval` seconds (sooner when a batch
  of `batch_size` is ready, or when someone flushes or closes); a `kill -9`
  loses what was enqueued in the last interval plus one commit.

A clean close drains everything in both. A database that is down is retried
with backoff while the deque (bounded by `max_pending`, oldest dropped first
and counted) holds on; the callers waiting on a failing batch are released at
its first failure, not made to wait for the database (availability first),
and counted in `unconfirmed`. A record the database refuses (a constraint,
bad text) is retried alone with its JSON replaced by a note, then dropped and
logged, so one bad record never costs its batch.

Order: one deque holds session starts, calls and session closes in the order
they happened, and each batch writes starts, then calls with their sessions'
counters (`SET n = n + :k`, atomic under concurrent writers), then closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import DataError, IntegrityError, ProgrammingError, SQLAlchemyError

from hintgate.store.async_core import AsyncEngine
from hintgate.store.engine import error_detail
from hintgate.store.queries import begin_write
from hintgate.store.rows import (
    CALL,
    CLOSE,
    START,
    Batch,
    CallRecord,
    Encoded,
    Item,
    SessionRecord,
    json_serializer,
    prepare,
    write,
)
from hintgate.store.stopping import STOP_WAIT, stop_task
from hintgate.store.tokens import MODES as TOKEN_MODES

if TYPE_CHECKING:
    from hintgate.config.settings import Settings

__all__ = [
    "COMMIT_MODES",
    "COMMIT_WINDOW",
    "DEFAULT_COMMIT_INTERVAL",
    "DEFAULT_RESPONSE_CAP",
    "DEFAULT_RETENTION",
    "CallRecord",
    "Encoded",
    "Recorder",
    "RecorderFailed",
    "RecordingSettings",
    "RunningCalls",
    "SessionRecord",
    "json_serializer",
]

logger = logging.getLogger("hintgate.store")

WriteBatch = Callable[[Callable[[], Batch]], Awaitable[None]]
"""Prepares a batch (calling what it is given, off the event loop) and commits it in one transaction."""
WriteNow = Callable[[Callable[[], Batch]], bool]
"""Prepares and commits a light batch at once, in the caller's step; False when it cannot (nothing written)."""


DEFAULT_RETENTION = 100
"""Sessions kept, with their calls; older ones are pruned."""
DEFAULT_RESPONSE_CAP = 65536
"""Bytes of a call's response (and arguments) JSON kept; the rest is cut and the original size recorded."""
DEFAULT_COMMIT_INTERVAL = 0.05
"""Seconds between the recorder's commits in fast mode: the window a `kill -9` can lose."""
COMMIT_WINDOW = 0.003
"""Seconds a durable batch is held at most for the records of calls still running (see the module)."""
COMMIT_MODES = ("durable", "fast")
"""durable: a call returns once its record is committed (group commit); fast: commits every interval."""


@dataclass(frozen=True, slots=True)
class RecordingSettings:
    """How a store records sessions and calls: what it keeps, how it commits, how it counts tokens.

    Attributes:
        retention: sessions kept with their calls, at least 1 (the store prunes older ones).
        response_cap: bytes of each call's response and arguments JSON kept.
        commit_interval: seconds between commits of recorded calls in fast mode.
        commit: `"durable"` (a call's record is committed before `Store.record_call_durable`
            returns) or `"fast"` (committed within `commit_interval`); see the module.
        tokens: `"estimate"` (calibrated, ~no memory) or `"exact"` (o200k's tables,
            ~140 MB, loaded in the recorder's worker on the first call recorded).

    Raises:
        ValueError: a retention below 1, a negative cap or interval, or an unknown mode.
    """

    retention: int = DEFAULT_RETENTION
    response_cap: int = DEFAULT_RESPONSE_CAP
    commit_interval: float = DEFAULT_COMMIT_INTERVAL
    commit: str = "durable"
    tokens: str = "estimate"

    def __post_init__(self) -> None:
        if self.retention < 1:
            raise ValueError(f"retention must be at least 1 session, got {self.retention}")
        if self.response_cap < 0 or self.commit_interval < 0:
            raise ValueError("response_cap and commit_interval cannot be negative")
        if self.commit not in COMMIT_MODES:
            raise ValueError(f"commit must be one of {', '.join(COMMIT_MODES)}, got {self.commit!r}")
        if self.tokens not in TOKEN_MODES:
            raise ValueError(f"tokens must be one of {', '.join(TOKEN_MODES)}, got {self.tokens!r}")

    @classmethod
    def from_settings(cls, settings: Settings) -> RecordingSettings:
        """The recording the gateway's settings ask for (each field the setting of its name), the same for every
        command that opens its store (opening prunes to `retention`)."""
        return cls(**{field.name: getattr(settings, field.name) for field in fields(cls)})

    @property
    def durable(self) -> bool:
        """Whether a call's record is committed before the call returns (`commit="durable"`)."""
        return self.commit == "durable"


class RunningCalls:
    """The gateway's calls past their ask stage (forwarded, their result guarded, their record waited for) and not
    answered yet: the pipeline enters each as it is forwarded and leaves it once its answer has left.

    A durable record waits up to `COMMIT_WINDOW` for the records of the others, to share their commit; a call
    recorded while no other runs is committed at once, in its caller's step. A call waiting for a person's answer
    is not entered: it may wait minutes, and no record would come from it meanwhile.
    """

    __slots__ = ("_count",)

    def __init__(self) -> None:
        self._count: int | None = None

    @property
    def count(self) -> int | None:
        """How many run now; None until the first one entered (a store written without a gateway that counts its
        calls: not known)."""
        return self._count

    def enter(self) -> None:
        """A call is forwarded: it runs until `leave`."""
        self._count = (self._count or 0) + 1

    def leave(self) -> None:
        """A call entered has answered (its record committed, or given up on)."""
        assert self._count, "a call left that never entered"
        self._count -= 1

    def how_many(self) -> int:
        """How many run now, 0 when not known (a recorder holds no batch for them then)."""
        return self._count or 0


class RecorderFailed(RuntimeError):
    """The recorder task stopped on an unexpected error; nothing more will be written."""


_REFUSED = (IntegrityError, DataError, ProgrammingError, ValueError, TypeError, AttributeError, KeyError)
"""Errors that say the data is wrong (or cannot be prepared): retrying the same batch cannot help."""


class Recorder:
    """Batches records off the call path and commits them in the background.

    Call `put` from the event loop the recorder was started on.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        recording: RecordingSettings,
        *,
        replica: str,
        batch_size: int = 500,
        max_pending: int = 100_000,
        before_commit: Callable[[], Awaitable[None]] | None = None,
        on_failure: Callable[[], Awaitable[None]] | None = None,
        after_commit: Callable[[], Awaitable[None]] | None = None,
        writer: WriteBatch | None = None,
        write_now: WriteNow | None = None,
        may_write_now: Callable[[], bool] | None = None,
        siblings: Callable[[], int] | None = None,
        window: float = COMMIT_WINDOW,
    ) -> None:
        self._engine = engine
        self._write_batch: WriteBatch = writer if writer is not None else self._write_with_engine
        self._write_now = write_now
        self._may_write_now = may_write_now
        """Whether a record may be committed in its caller's step: nothing `before_commit` or `after_commit` would
        do is due (a moved file to reopen, a prune)."""
        self._busy = False
        """The task has taken a batch and not finished it."""
        self._siblings = siblings
        """How many calls are in progress (their records waited for included); None: not known, never held."""
        self._window = window
        self._gathering = False
        """The task holds a durable batch for the records of calls still running (`_gather`)."""
        self.recording = recording
        self._replica = replica
        self._before_commit = before_commit
        self._on_failure = on_failure
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
        self._in_flight: list[Item] = []
        """The batch being committed."""
        self._given_up = False
        """A close stopped waiting for the task: whatever it still commits, nothing more is done after."""
        self.dropped = 0
        """Records lost: pushed out of a full queue, refused by the database, or left at a failed close."""
        self.failures = 0
        """Batches whose commit failed at least once (each was retried until it went through)."""
        self.unconfirmed = 0
        """Waiting callers released before their record was committed: the database was failing."""
        self.failing_since: float | None = None
        """`time.time()` of the first failure of the batch being retried now; None when writes go through."""
        self.last_error: str | None = None
        """Why the last failed commit failed."""

    def start(self) -> None:
        """Start the background task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="hintgate-store-recorder")

    @property
    def pending(self) -> int:
        """Records enqueued and not yet committed (or dropped)."""
        return self._enqueued - self._done

    @property
    def running(self) -> bool:
        """Whether the background task is alive."""
        return self._task is not None and not self._task.done()

    def put(self, kind: int, payload: Any, waiter: asyncio.Future[bool] | None = None) -> None:
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
                _resolve((pending[0],), False)
        pending.append((kind, payload, waiter))
        self._enqueued += 1
        if self._gathering:
            self._urgent.set()  # the held batch looks again: was it the last record it waited for?

    def put_and_wait(self, kind: int, payload: Any) -> asyncio.Future[bool]:
        """Enqueue one item; the future resolves True once it is committed, False if that could not be confirmed.

        The future never raises: a record that could not be written is counted, not thrown at the caller.
        """
        waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if not self.running:
            self.dropped += 1
            waiter.set_result(False)
            return waiter
        self.put(kind, payload, waiter)
        return waiter

    def record_call_now(self, rec: CallRecord) -> bool:
        """Commit a call record in the caller's step, without the task: only in durable mode, while nothing else
        is queued or being written and the writer can commit it on the loop at once (`write_now`); True once it
        is committed. False when it was not (nothing written): `put_and_wait` it then.

        A durable call recorded alone is answered without two more turns of the event loop (the task woken, the
        caller woken back); a call that arrives while others are queued or written waits for their batch, in order.
        """
        if (
            self._write_now is None
            or self._busy
            or self._pending
            or self._closing
            or not self.recording.durable
            or self.failing_since is not None
            or not self.running
            or (self._may_write_now is not None and not self._may_write_now())
        ):
            return False
        try:
            written = self._write_now(self._preparer([(CALL, rec, None)]))
        except (SQLAlchemyError, OSError, *_REFUSED):
            return False  # the task writes it again, with its retries and its refusals' notes
        if written:
            self._enqueued += 1
            self._done += 1
        return written

    def session_started(self, rec: SessionRecord) -> None:
        """Enqueue a session start."""
        self.put(START, rec)

    def session_closed(self, session_id: str, ended_at: datetime) -> None:
        """Enqueue a session end."""
        self.put(CLOSE, (session_id, ended_at))

    def record_call(self, rec: CallRecord) -> None:
        """Enqueue a call record."""
        self.put(CALL, rec)

    def record_call_waited(self, rec: CallRecord) -> asyncio.Future[bool]:
        """Enqueue a call record; the future resolves once it is committed (see `put_and_wait`)."""
        return self.put_and_wait(CALL, rec)

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

    async def close(self, timeout: float, *, grace: float = STOP_WAIT) -> int:
        """Commit everything pending and stop; return how many records were lost (0 unless the database failed).

        Ends within `timeout` + `grace` seconds: the task commits for up to `timeout` seconds, then it is
        cancelled and given `grace` seconds to end. One that does not (its write waits on a server that does
        not answer) is logged by name and left behind; the records it was writing count as lost.
        """
        self._closing = True
        self._urgent.set()
        self._wake.set()
        task = self._task
        if task is not None and not task.done():
            try:
                async with asyncio.timeout(timeout):
                    await asyncio.shield(task)
            except TimeoutError:
                if not await stop_task(task, within=grace):
                    self._given_up = True
                    _resolve(self._in_flight, False)
        lost = self._enqueued - self._done
        self.dropped += lost
        self._done = self._enqueued
        _resolve(self._pending, False)
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
                if not (self._closing or self.recording.durable or self._urgent.is_set()):
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self.recording.commit_interval):
                            await self._urgent.wait()
                self._urgent.clear()
                if self._siblings is not None and self.recording.durable and not self._closing:
                    await self._gather()
                self._busy = True
                while self._pending:
                    size = min(len(self._pending), self._batch_size)
                    items = [self._pending.popleft() for _ in range(size)]
                    if self._before_commit is not None:
                        await self._before_commit()
                    self._in_flight = items
                    await self._commit(items)  # `items` grows by what arrived before it was prepared
                    if self._given_up:  # a close counted them lost and released the database meanwhile
                        return
                    if self._after_commit is not None:
                        await self._after_commit()
                    self._done += len(items)
                    self._release_waiters()
                self._busy = False
                if not self._closing:
                    self._wake.clear()
        except Exception as exc:  # a bug: say so loudly, and fail whoever waits rather than hang them
            logger.exception("the store's recorder stopped; calls are no longer recorded")
            self.last_error = f"the recorder stopped: {exc!r}"
            self._release_waiters(RecorderFailed(f"the store's recorder stopped: {exc!r}"))
            self.unconfirmed += _resolve(self._pending, False)

    async def _gather(self) -> None:
        """Hold the batch up to `window` while calls that did not record yet are running, so that their records
        share its commit; end as soon as none is left, a batch is full, or someone flushes or closes."""
        siblings, pending = self._siblings, self._pending
        assert siblings is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._window
        self._gathering = True
        try:
            while not (self._closing or self._waiters or len(pending) >= self._batch_size):
                waiting = sum(1 for item in pending if item[2] is not None)
                left = deadline - loop.time()
                if siblings() <= waiting or left <= 0:
                    return
                self._urgent.clear()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(left):
                        await self._urgent.wait()
        finally:
            self._gathering = False
            self._urgent.clear()

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

    def _preparer(self, items: Sequence[Item], *, safe: bool = False, joined: bool = False) -> Callable[[], Batch]:
        """`prepare` of `items`, run once however often the write is retried; `joined`: what is enqueued until then
        joins them (`_join`; `items` is a list that grows)."""
        recording = self.recording
        exact = recording.tokens == "exact"
        return _Prepared(items, recording.response_cap, self._replica, safe, exact, self._join if joined else None)

    def _join(self, items: list[Item]) -> None:
        """Move what was enqueued since `items` were taken into them, up to a batch (a group commit).

        Called as the batch is prepared, off the event loop (deque appends and pops are atomic): records
        that arrived while the batch waited for the writer are committed with it, not by one more
        transaction after it. Nothing is taken from a queue half full, where `put` may drop its oldest.
        """
        pending = self._pending
        half = (pending.maxlen or 0) // 2
        while len(items) < self._batch_size and 0 < len(pending) < half:
            try:
                items.append(pending.popleft())
            except IndexError:  # taken meanwhile: nothing is
                return

    async def _write_with_engine(self, prepared: Callable[[], Batch]) -> None:
        batch = await asyncio.to_thread(prepared)
        async with begin_write(self._engine) as conn:
            await write(conn, batch)

    async def _commit(self, items: list[Item]) -> None:
        """Commit `items`, and whatever joins them as they are prepared (`_join`: `items` grows)."""
        try:
            await self._write(self._preparer(items, joined=True), items)
            _resolve(items, True)
            return
        except _REFUSED as exc:
            if len(items) == 1:
                _resolve(items, await self._commit_alone(items[0], exc))
                return
            logger.warning(
                "the database refused a batch of %d records (%s); writing them one by one", len(items), _reason(exc)
            )
        for item in items:
            _resolve((item,), await self._commit_alone(item, None))

    async def _commit_alone(self, item: Item, refused: BaseException | None) -> bool:
        """Write one item in its own transaction; if refused, once more with its JSON replaced by a note.

        Returns:
            Whether it was written (with or without its JSON).
        """
        error = refused
        if error is None:
            try:
                await self._write(self._preparer((item,)), (item,))
                return True
            except _REFUSED as exc:
                error = exc
        try:
            await self._write(self._preparer((item,), safe=True), (item,))
        except _REFUSED as exc:
            self.dropped += 1
            logger.error("a %s record was dropped: the database refused it (%s)", _KINDS[item[0]], _reason(exc))
            return False
        logger.error(
            "a %s record was stored without its JSON: the database refused it (%s)", _KINDS[item[0]], _reason(error)
        )
        return True

    async def _write(self, prepared: Callable[[], Batch], items: Iterable[Item]) -> None:
        """Prepare and commit a batch in one transaction, retrying while the database is unreachable or busy.

        At the first failure, whoever waits on `items` is released (unconfirmed) rather than
        held until the database is back.

        Raises:
            IntegrityError: or another of `_REFUSED`, when the database refuses the data itself
                (or it cannot be prepared).
        """
        delay = 0.05
        failing_since: float | None = None
        while True:
            try:
                await self._write_batch(prepared)
            except _REFUSED:
                raise
            except (SQLAlchemyError, OSError) as exc:
                self.last_error = _reason(exc)
                if failing_since is None:
                    failing_since = time.monotonic()
                    self.failing_since = time.time()
                    self.failures += 1
                    self.unconfirmed += _resolve(items, False)
                    logger.warning("cannot write to the database (%s); retrying", self.last_error)
                if self._on_failure is not None:
                    await self._on_failure()  # e.g. a deleted file: reopen it before the next try
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
                continue
            if failing_since is not None:
                self.failing_since = None
                logger.warning("the database is writable again after %.1f s", time.monotonic() - failing_since)
            return


LIGHT_RECORDS = 16
"""Records in a batch light enough to be prepared and committed on the event loop's thread, at most."""
LIGHT_TEXT = 16384
"""Characters of JSON text (arguments and responses) in such a batch, at most."""


class _Prepared:
    """A batch's rows, prepared on first call (in the writer's thread, or the loop's when light) and kept for
    retries."""

    __slots__ = ("_batch", "_cap", "_exact", "_items", "_join", "_replica", "_safe")

    def __init__(
        self,
        items: Sequence[Item],
        cap: int,
        replica: str,
        safe: bool,
        exact: bool,
        join: Callable[[list[Item]], None] | None = None,
    ) -> None:
        self._items, self._cap, self._replica, self._safe, self._exact = items, cap, replica, safe, exact
        self._join = join
        """Adds the items enqueued since to `items` (a list) as they are prepared."""
        self._batch: Batch | None = None

    def light(self) -> bool:
        """Whether the batch is cheap to prepare on the event loop: at most `LIGHT_RECORDS` records whose JSON
        (at most `LIGHT_TEXT` characters in all) the caller encoded already, tokens estimated. If so, preparing
        it takes no more records (none arrives meanwhile on the loop).

        A writer that commits on the loop asks this first (`hintgate.store.writer`).
        """
        if self._safe or self._exact or len(self._items) > LIGHT_RECORDS:
            return False
        text = 0
        for kind, payload, _ in self._items:
            if kind != CALL:
                continue
            for value, encoded in (
                (payload.arguments, payload.arguments_json),
                (payload.response, payload.response_json),
            ):
                if encoded is not None:
                    text += len(encoded)
                elif value is not None:
                    return False
            text += len(payload.error or "")
        if text > LIGHT_TEXT:
            return False
        self._join = None
        return True

    def __call__(self) -> Batch:
        if self._batch is None:
            if self._join is not None:
                assert isinstance(self._items, list)
                self._join(self._items)
            self._batch = prepare(
                self._items, response_cap=self._cap, replica=self._replica, safe=self._safe, exact_tokens=self._exact
            )
        return self._batch


_KINDS = {START: "session start", CALL: "tool call", CLOSE: "session close"}


def _resolve(items: Iterable[Item], committed: bool) -> int:
    """Tell whoever waits on `items` whether they were committed; returns how many were waiting."""
    told = 0
    for _, _, waiter in items:
        if waiter is not None and not waiter.done():
            waiter.set_result(committed)
            told += 1
    return told


def _reason(exc: BaseException | None) -> str:
    return error_detail(exc) if exc is not None else "unknown"
