"""The store: sessions, tool calls with the hints in force, and operator overrides.

One SQLAlchemy (async, Core) schema on two backends:

- SQLite, the default: one file, `hintgate.db` in the user data directory, in
  WAL mode with `synchronous=NORMAL` (a commit survives the process being
  killed; only a power cut can take the last ones) and a busy timeout, so
  several processes may share it.
- PostgreSQL, when several gateway replicas share one history:
  `postgresql://USER:PASSWORD@HOST/DB`.

The driver (aiosqlite, asyncpg) is hintgate's business: plain `sqlite:///PATH`
and `postgresql://` URLs are mapped to it. Alembic migrations are applied on
open (under an advisory lock on PostgreSQL, a write transaction on SQLite, so
replicas starting together migrate once).

Recording is off the call path (`hintgate.store.recorder`): `record_call`
appends to a deque and a background task commits, as its `RecordingSettings`
say. With `commit="durable"` (the default) it commits as soon as it is free,
batching whatever arrived meanwhile (a group commit; while other calls of
the gateway still run, `running_calls`, it waits up to `COMMIT_WINDOW`, 3 ms,
for their records), and `await record_call_durable(rec)` returns once that
record is committed: a gateway releases a call's result only then, so after a
`kill -9` every call that returned is in the database. If the database cannot take the record (down,
failing), the wait ends at the first failed attempt or after `DURABLE_WAIT`
seconds and the call goes on (availability first): the record stays queued
and is retried, and the miss is counted in `health()`. With `commit="fast"`
nothing waits and the task commits every `commit_interval` (50 ms by
default): a `kill -9` loses what was enqueued in the last interval plus one
commit. A clean `close()` loses nothing in either mode.

A SQLite file deleted or replaced under a running store is noticed before
the next commit (and by `health()`): the store reopens the path, migrating a
fresh database if there is none, and reports the incident in `health()` for
`INCIDENT_HOLD` seconds. What was committed to the old file after it was
unlinked is lost with it.

Sessions: a replica (`replica`, from `Settings.replica`, else `HOST:PID`)
closes, when it opens the store, the sessions it left active when it crashed,
and marks `expired` the approvals it left pending (`hintgate.store.approvals`).
Replicas sharing a host name must set `HINTGATE_REPLICA`. Retention keeps the
newest `retention` sessions with their calls; the recorder prunes at most
every `PRUNE_EVERY` seconds, and once on open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Unpack

from sqlalchemy import URL, make_url, text

from hintgate.config.permissions import path_problem, private_directory, private_sqlite
from hintgate.deadlines import Deadlines
from hintgate.errors import StoreError
from hintgate.store import queries
from hintgate.store.approvals import StoredApprovals, dead_here, expire_replicas, pending_replicas, prune_settled
from hintgate.store.async_core import AsyncConnection, AsyncEngine
from hintgate.store.engine import (
    MIGRATION_LOCK,
    async_engine,
    database_url,
    describe,
    error_detail,
    translated,
)
from hintgate.store.filters import CallFilter, SessionFilters
from hintgate.store.login_waits import LoginWaits
from hintgate.store.notify import Notifications
from hintgate.store.oauth_tokens import SealedCredentials
from hintgate.store.overrides import Overrides
from hintgate.store.part import StorePart
from hintgate.store.pins import Pins
from hintgate.store.recorder import (
    COMMIT_MODES,
    COMMIT_WINDOW,
    DEFAULT_COMMIT_INTERVAL,
    DEFAULT_RESPONSE_CAP,
    DEFAULT_RETENTION,
    CallRecord,
    Recorder,
    RecorderFailed,
    RecordingSettings,
    RunningCalls,
    SessionRecord,
)
from hintgate.store.scan_verdicts import ScanVerdicts
from hintgate.store.schema import upgrade
from hintgate.store.server_changes import ServerChanges
from hintgate.store.stopping import STOP_WAIT, ended_within
from hintgate.store.tasks import StoredTasks, unfinished_replicas, withdraw_abandoned
from hintgate.store.used_nonces import StoredNonces
from hintgate.store.writer import SqliteWriter

__all__ = [
    "COMMIT_MODES",
    "COMMIT_WINDOW",
    "DEFAULT_COMMIT_INTERVAL",
    "DEFAULT_RESPONSE_CAP",
    "DEFAULT_RETENTION",
    "DURABLE_WAIT",
    "INCIDENT_HOLD",
    "PRUNE_EVERY",
    "CallFilter",
    "CallRecord",
    "RecordingSettings",
    "RunningCalls",
    "SessionFilters",
    "SessionRecord",
    "Store",
    "StoreError",
    "StoreHealth",
    "database_url",
]

logger = logging.getLogger("hintgate.store")

DURABLE_WAIT = 5.0
"""Seconds a call waits at most for its record's commit before it returns anyway (counted as unconfirmed)."""
INCIDENT_HOLD = 3600.0
"""Seconds `health()` stays degraded after the database file was found deleted or replaced."""
PRUNE_EVERY = 5.0
"""Seconds between retention passes (each is a few indexed deletes)."""


def default_replica() -> str:
    """`HOST:PID`: unique among gateways on one host, so that each closes only what a dead one left."""
    return f"{socket.gethostname()}:{os.getpid()}"


async def _abandoned(conn: AsyncConnection, replica: str) -> list[str]:
    """This replica, and every `HOST:PID` replica of this host whose process is gone.

    Stdio gateways are many on one host, each started by a client; a crashed
    one's sessions would stay active, its approvals pending and its tasks
    running, forever unless a later one closes, expires and withdraws them.
    """
    host = socket.gethostname()
    found = [replica]
    others = set(await queries.active_replicas(conn, prefix=f"{host}:"))
    others.update(await pending_replicas(conn, prefix=f"{host}:"))
    others.update(await unfinished_replicas(conn, prefix=f"{host}:"))
    found.extend(other for other in sorted(others) if other != replica and dead_here(other))
    return found


# -- the store ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoreHealth:
    """How recording is going, for `/api/health`.

    Attributes:
        status: `"degraded"` when the recorder stopped, the database is failing, or its file was
            deleted or replaced within `INCIDENT_HOLD` seconds; else `"ok"`.
        reason: what is wrong, when degraded.
        commit: `"durable"` or `"fast"`.
        backlog: records waiting to be committed.
        dropped: records lost since start (pushed out of a full queue, refused by the database).
        failures: batches whose commit failed at least once since start (each retried).
        unconfirmed: calls that returned before their record was committed (durable mode, database failing).
    """

    status: str
    reason: str | None
    commit: str
    backlog: int
    dropped: int
    failures: int
    unconfirmed: int


class Store(StorePart):
    """Sessions, calls, overrides, tool pins, OAuth credentials and server changes in one database.

    Open with `await Store.open(url)`. Sessions and calls are its own (recorded off the call path, read by
    its query methods); the rest are parts built from its engine, each one concept: `overrides`, `pins`,
    `credentials`, `server_changes`, `approvals`, `login_waits`, `used_nonces` and `scan_verdicts`.

    Attributes:
        replica: this gateway instance's id, stamped on the sessions it serves.
        url: the database URL, password masked.
        recording: what it keeps of sessions and calls, how it commits them and counts their tokens.
        running_calls: the gateway's calls past their ask stage and not answered yet, entered and left by its
            pipeline (`RunningCalls`); a durable record waits a little for the records of the others.
    """

    def __init__(self, engine: AsyncEngine, url: URL, recording: RecordingSettings, *, replica: str) -> None:
        super().__init__(engine, url)
        self.running_calls = RunningCalls()
        self.url = url.render_as_string(hide_password=True)
        self.replica = replica
        self.recording = recording
        self.notifications = Notifications(engine)
        self.overrides = Overrides(engine, url)
        """Operators' hint, title and confirm overrides and policy settings (`hintgate.store.overrides`)."""
        self.pins = Pins(engine, url)
        """Every tool's accepted and last seen definition, with their history (`hintgate.store.pins`)."""
        self.credentials = SealedCredentials(engine, url)
        """What hintgate holds to log in to servers behind OAuth, sealed (`hintgate.store.oauth_tokens`)."""
        self.server_changes = ServerChanges(engine, url)
        """Servers added, edited, removed, enabled or disabled at run time (`hintgate.store.server_changes`)."""
        self.approvals = StoredApprovals(engine, url, replica=replica, notifications=self.notifications)
        """The approval queue shared by every replica (`hintgate.policy.approvals.Ledger`)."""
        self.login_waits = LoginWaits(engine, url)
        """People's upstream logins waiting for their browser, for every replica (`hintgate.store.login_waits`)."""
        self.tasks = StoredTasks(engine, url, response_cap=recording.response_cap)
        """The tasks clients hold handles of, shared by every replica (`hintgate.handles.TaskBook`)."""
        self.used_nonces = StoredNonces(engine, url)
        """Answers to 2026-07-28 approval questions already used, for every replica (`hintgate.store.used_nonces`)."""
        self.scan_verdicts = ScanVerdicts(engine, url)
        """The poisoning scans of the definitions listed, for the next start (`hintgate.store.scan_verdicts`)."""
        self._path: Path | None = None
        self._writer: SqliteWriter | None = None
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._path = Path(url.database or "")
            self._writer = SqliteWriter(url)
        self._recorder = Recorder(
            engine,
            recording,
            replica=replica,
            before_commit=self._check_file,
            on_failure=self._check_after_failure,
            after_commit=self._maybe_prune,
            writer=None if self._writer is None else self._writer.write,
            write_now=None if self._writer is None else self._writer.write_now,
            may_write_now=partial(_nothing_to_check, self),
            siblings=self.running_calls.how_many,
        )
        self._last_prune = time.monotonic()
        self._closed = False
        self._sessions: set[str] = set()
        """The sessions recorded started here and not yet ended."""
        self._waiting: Deadlines[asyncio.Future[bool]] = Deadlines(_waits, self._unconfirmed)
        """Durable calls' waiters until their `DURABLE_WAIT` ends: one timer for them all, not one per call."""
        self._identity = _identity(self._path)
        self._incident: tuple[float, str] | None = None
        self._reopen: str | None = None
        """Why the file must be reopened at the next check, even if it looks the same."""

    @classmethod
    async def open(
        cls, url: str, recording: RecordingSettings | None = None, *, replica: str | None = None, recover: bool = True
    ) -> Store:
        """Open (creating and migrating as needed) the database, and start recording.

        Args:
            url: see `database_url`.
            recording: what to keep, how to commit and count tokens; the defaults of `RecordingSettings` when None.
            replica: this instance's id (`Settings.replica`); else `HOST:PID`.
            recover: close the sessions this replica left active (it crashed). A
                gateway does; a reader such as the CLI must not, or it would close
                the sessions a gateway of the same replica is serving.

        Raises:
            StoreError: the URL is invalid, or the database cannot be created, reached or migrated.
        """
        recording = recording or RecordingSettings()
        parsed = make_url(database_url(url))
        replica = replica or default_replica()
        if parsed.get_backend_name() == "sqlite" and parsed.database != ":memory:":
            path = Path(parsed.database or "")
            try:
                if not path.parent.is_dir():
                    private_directory(path.parent)
            except OSError as exc:
                raise StoreError(f"cannot create SQLite database {path}: {path_problem(path.parent, exc)}") from exc
            try:
                private_sqlite(path)
            except OSError as exc:
                problem = path_problem(path, exc, directory=False)
                raise StoreError(f"cannot create SQLite database {path}: {problem}") from exc
        engine = async_engine(parsed)
        try:
            with translated(parsed, "open"):
                async with queries.begin_write(engine) as conn:
                    if conn.dialect.name == "postgresql":
                        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                    await conn.run_sync(upgrade)
                async with queries.begin_write(engine) as conn:
                    closed = expired = withdrawn = 0
                    if recover:
                        gone = await _abandoned(conn, replica)
                        closed = await queries.close_abandoned(conn, gone)
                        expired = await expire_replicas(conn, gone, now=datetime.now(UTC))
                        withdrawn = await withdraw_abandoned(conn, gone, now=datetime.now(UTC))
                    pruned = await queries.prune(conn, recording.retention)
        except BaseException:
            await engine.dispose()
            raise
        if closed:
            logger.info("closed %d sessions that replica %r left active", closed, replica)
        if expired:
            logger.warning("%d approvals were pending when their gateway stopped: marked expired, nothing ran", expired)
        if withdrawn:
            logger.warning(
                "%d tasks were running when their gateway stopped: recorded as withdrawn, to be cancelled upstream",
                withdrawn,
            )
        if pruned:
            logger.info("removed %d old sessions (retention %d)", pruned, recording.retention)
        store = cls(engine, parsed, recording, replica=replica)
        store._recorder.start()
        return store

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self, *, timeout: float = 30.0) -> None:
        """Commit everything recorded so far, then release the database.

        It ends in bounded time whatever the database does: at most `timeout` seconds of committing, then
        `STOP_WAIT` seconds for each of the store's tasks to end once cancelled and for each release of its
        connections. A task still waiting then (on a server that does not answer) is logged by name and left
        behind (`hintgate.store.stopping`); what was committed stays committed, the rest is counted lost.

        Args:
            timeout: seconds to keep trying when the database is failing.

        Raises:
            StoreError: records could not be written before `timeout`.
        """
        if self._closed:
            return
        self._closed = True
        await self.approvals.close()
        await self.notifications.close()
        try:
            lost = await self._recorder.close(timeout)
        finally:
            self._waiting.clear()
            where = describe(self._url)
            if self._writer is not None:
                await ended_within(self._writer.close(), STOP_WAIT, f"closing the writer of {where}")
            await ended_within(self._engine.dispose(), STOP_WAIT, f"closing the connections to {where}")
        if lost:
            raise StoreError(f"{lost} records could not be written to {describe(self._url)} before closing")

    async def flush(self) -> None:
        """Wait until everything recorded so far is committed.

        Raises:
            StoreError: the recorder stopped (its error is logged) or the store is closed.
        """
        try:
            await self._recorder.flush()
        except RecorderFailed as exc:
            raise StoreError(str(exc)) from exc

    def health(self) -> StoreHealth:
        """How recording is going: cheap (one `stat` of a SQLite file), for a health endpoint."""
        recorder = self._recorder
        problems: list[str] = []
        if not recorder.running and not self._closed:
            problems.append(f"the recorder stopped ({recorder.last_error or 'see the log'}); calls are not recorded")
        if recorder.failing_since is not None:
            since = datetime.fromtimestamp(recorder.failing_since, UTC).isoformat(timespec="seconds")
            problems.append(f"cannot write to {describe(self._url)} since {since}: {recorder.last_error}")
        changed = self._file_change()
        if changed is not None:
            problems.append(f"{changed}; it is recreated at the next write")
        if self._incident is not None and time.time() - self._incident[0] < INCIDENT_HOLD:
            problems.append(self._incident[1])
        return StoreHealth(
            status="degraded" if problems else "ok",
            reason="; ".join(problems) or None,
            commit=self.recording.commit,
            backlog=recorder.pending,
            dropped=recorder.dropped,
            failures=recorder.failures,
            unconfirmed=recorder.unconfirmed,
        )

    @property
    def dropped(self) -> int:
        """Records lost so far: refused by the database, or pushed out of a full queue while it was down."""
        return self._recorder.dropped

    @property
    def pending(self) -> int:
        """Records queued and not yet committed."""
        return self._recorder.pending

    # -- recording (never blocks, never raises) ---------------------------

    def session_started(self, rec: SessionRecord) -> None:
        """Record that a client session began."""
        if self._closed:
            self._recorder.dropped += 1
            return
        self._sessions.add(rec.id)
        self._recorder.session_started(rec)

    def session_closed(self, session_id: str, ended_at: datetime) -> None:
        """Record that a client session ended."""
        if self._closed:
            self._recorder.dropped += 1
            return
        self._sessions.discard(session_id)
        self._recorder.session_closed(session_id, ended_at)

    def record_call(self, rec: CallRecord) -> None:
        """Record one tool call: O(1), all encoding and counting happen later in the recorder."""
        if self._closed:
            self._recorder.dropped += 1
            return
        self._recorder.record_call(rec)

    async def record_call_durable(self, rec: CallRecord) -> bool:
        """Record one tool call; in durable mode, return once it is committed. Never raises.

        The record is enqueued before the first await: a caller cancelled while
        waiting still has its record written.

        Returns:
            True when the record is committed. False in fast mode (enqueued, committed
            within `commit_interval`), or when the database failed or `DURABLE_WAIT`
            passed first: the record stays queued and is retried, and `health()` counts
            the call as unconfirmed.
        """
        if self._closed or not self.recording.durable:
            self.record_call(rec)
            return False
        # A call recorded while no other runs (a stdio gateway's, one client's at a time) would be alone in a group
        # commit, so it is committed in the caller's step when it can be. Concurrent calls share the task's commit
        # instead, which waits a little for those still running (`Recorder`, `COMMIT_WINDOW`).
        running = self.running_calls.count
        alone = running <= 1 if running is not None else len(self._sessions) <= 1
        if alone and self._recorder.record_call_now(rec):
            return True
        waiter = self._recorder.record_call_waited(rec)
        if waiter.done():
            return waiter.result()
        loop = asyncio.get_running_loop()
        self._waiting.at(loop, loop.time() + DURABLE_WAIT, waiter)  # all end in order: none needs a timer of its own
        # Cancelled here, the waiter is cancelled with the caller; the record stays queued.
        return await waiter

    def _unconfirmed(self, waiter: asyncio.Future[bool]) -> None:
        """`DURABLE_WAIT` passed before the record was committed: the call goes on, counted."""
        waiter.set_result(False)
        self._recorder.unconfirmed += 1

    # -- queries ------------------------------------------------------------

    async def recent_sessions(self, limit: int = 10, **filters: Unpack[SessionFilters]) -> list[dict[str, Any]]:
        """The newest `limit` sessions, newest first: only `active` or `closed` ones, one replica's, or one
        person's (by name, or by who they are: `user_key`), when given; only `owner`'s (all a reader may see,
        a person's key) when given."""
        async with self.reading("read sessions from") as conn:
            return await queries.recent_sessions(conn, limit, **filters)

    async def sessions_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        """The ids of at most `limit` sessions that start with `prefix` (to resolve a short id)."""
        async with self.reading("read sessions from") as conn:
            return await queries.sessions_with_prefix(conn, prefix, limit)

    async def session(self, session_id: str, *, owner: str | None = None) -> dict[str, Any] | None:
        """One session with aggregates over its calls (see `queries.session`), or `None` (also when `owner` is
        given and did not open it)."""
        async with self.reading("read a session from") as conn:
            return await queries.session(conn, session_id, owner=owner)

    async def calls(self, where: CallFilter | None = None, *, limit: int = 50, offset: int = 0) -> list[dict[str, Any]]:
        """Calls matching every field `where` gives (`None`: every call): newest first, or in order within one
        session (see `queries.calls`).

        Raises:
            StoreError: an unreadable `since` or `until`, or a database failure.
        """
        try:
            async with self.reading("read calls from") as conn:
                return await queries.calls(conn, where, limit=limit, offset=offset)
        except ValueError as exc:  # an unreadable `since` or `until`
            raise StoreError(f"invalid time filter: {exc}") from None

    async def call(self, call_id: str, *, owner: str | None = None) -> dict[str, Any] | None:
        """One call by id, or `None` (also when `owner` is given and did not make it)."""
        async with self.reading("read a call from") as conn:
            return await queries.call(conn, call_id, owner=owner)

    async def tool_usage(self, *, owner: str | None = None) -> dict[str, dict[str, Any]]:
        """Per tool name: `{"calls", "errors", "last_used", "p50_ms"}` over every recorded call (`owner`'s only,
        when given)."""
        async with self.reading("read tool usage from") as conn:
            return await queries.tool_usage(conn, owner=owner)

    # -- upkeep -----------------------------------------------------------

    async def prune(self) -> int:
        """Apply retention now: delete closed sessions older than the newest `retention`, with their calls.

        Returns:
            How many sessions were deleted.
        """
        self._last_prune = time.monotonic()
        async with self.writing("prune") as conn:
            await prune_settled(conn)
            pruned = await queries.prune(conn, self.recording.retention)
        if pruned and self._writer is not None:
            self._writer.forget_sessions()
        return pruned

    def _file_change(self) -> str | None:
        """What happened to the SQLite file since it was opened, if it is no longer the same file."""
        if self._path is None or self._identity is None:
            return None
        now = _identity(self._path)
        if now == self._identity:
            return None
        if now is None:
            return f"the database file {self._path} was deleted"
        return f"the database file {self._path} was replaced by another file"

    async def _check_after_failure(self) -> None:
        """After a failed commit: reopen the file if it changed, if reopening it failed before, or if it
        lacks the tables (an empty file a connection made at the path, perhaps on the old file's inode)."""
        if self._path is not None and self._reopen is None and "no such table" in (self._recorder.last_error or ""):
            self._reopen = f"the database file {self._path} lost its tables"
        await self._check_file()

    async def _check_file(self) -> None:
        """Before a commit: if the SQLite file was deleted or replaced, reopen the path (migrating it)."""
        changed = self._file_change() or self._reopen
        if changed is None:
            return
        at = datetime.now(UTC).isoformat(timespec="seconds")
        # The pool's connections, and the recorder's, hold the old file open; closing
        # them lets the next connection open whatever the path names now.
        await self._engine.dispose()
        if self._writer is not None:
            await self._writer.reset()
        assert self._path is not None
        # SQLite cannot checkpoint into a file that moved, so the old database's WAL stays
        # behind; opened with the new file it would be replayed into it. It is the old
        # file's, gone with it.
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{self._path}{suffix}")
        try:
            with translated(self._url, "recreate"):
                if not self._path.parent.is_dir():
                    private_directory(self._path.parent)
                private_sqlite(self._path)
                async with queries.begin_write(self._engine) as conn:
                    await conn.run_sync(upgrade)
        except Exception as exc:  # whatever it is, the recorder carries on and retries
            reason = f"{changed}, and reopening it failed: {error_detail(exc)}"
            if self._incident is None or not self._incident[1].startswith(reason):  # once, not every retry
                logger.error("%s (at %s)", reason, at)
                self._incident = (time.time(), f"{reason} (at {at})")
            self._reopen = changed
            return
        self._reopen = None
        self._identity = _identity(self._path)
        logger.error("%s at %s; recreated it, records committed to the old file since then are lost", changed, at)
        self._incident = (time.time(), f"{changed} at {at}; recreated, calls recorded in between may be lost")

    async def _maybe_prune(self) -> None:
        if time.monotonic() - self._last_prune < PRUNE_EVERY:
            return
        try:
            await self.prune()
        except StoreError as exc:
            logger.warning("%s; retrying later", exc)


def _waits(waiter: asyncio.Future[bool]) -> bool:
    """Whether a durable call still waits for its record's commit."""
    return not waiter.done()


def _identity(path: Path | None) -> tuple[int, int] | None:
    """(st_dev, st_ino) of the file at `path`, None when there is none."""
    if path is None:
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_dev, found.st_ino)


def _nothing_to_check(store: Store) -> bool:
    """Whether `store`'s recorder may commit a record without its task: the checks it runs before and after a
    commit (`Store._check_file`, `Store._maybe_prune`) have nothing to do. It only reads the store's state; kept
    beside the class, whose methods are the store's parts and their upkeep (tests/test_architecture.py caps them)."""
    return store._reopen is None and time.monotonic() - store._last_prune < PRUNE_EVERY and store._file_change() is None
