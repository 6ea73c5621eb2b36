"""The recorder's SQLite writer: a whole batch in one hop to one thread.

A recorded batch on SQLite is prepared (JSON, caps, token counts) and written
(`BEGIN IMMEDIATE`, one `executemany` per statement, `COMMIT`) in a single
call to a dedicated thread that owns one connection of a synchronous engine on
the standard `sqlite3` driver, opened with the same PRAGMAs and `BEGIN
IMMEDIATE` hook as the store's async engine (`hintgate.store.engine`). The
statements are compiled once by SQLAlchemy and their rows bound through the
columns' own bind processors, so the rows are stored exactly as the async
engine stores them; only the per-statement execution machinery is skipped.

A call's session is written as a stub (`INSERT ... ON CONFLICT DO NOTHING`) in
case its start was never recorded; the writer remembers the sessions it has
written on its connection and leaves that statement out for them. Only
retention deletes sessions: after a prune that deleted any (`forget_sessions`)
the writer forgets them all, and a batch the database refuses while it left
stubs out is written again whole, so a session deleted meanwhile is written
as a stub as before.

A light batch (`recorder._Prepared.light`: a few records whose JSON the
gateway encoded already) is prepared and committed on the event loop's own
thread instead, on a second connection that never waits: no busy timeout (a
write lock held elsewhere hands the batch to the thread, which waits for it as
before) and no automatic checkpoint (the thread runs one every
`CHECKPOINT_EVERY` such commits, so the loop never copies the WAL into the
database or syncs it). That saves the hand-off: the thread woken, the GIL
passed back and forth around each SQLite step, the loop woken back (see
bench/README.md, "Light batches committed on the loop"). The loop's connection
is opened by the thread after its first batch, and is used only while the
thread has no batch or reset of its own in hand.

The connections keep a small page cache (`CACHE_KIB`): a batch touches the
pages its rows go to and the index pages above them, not the whole file,
and SQLite's default (2 MiB per connection) would be held for the life of
the gateway. The connection stays checked out between batches (no pool reset, no
reconnect); it is closed after a failed write, so the next attempt opens the
path afresh, and by `reset()` when the store found its file deleted or replaced.
Errors are SQLAlchemy's (`IntegrityError`, `OperationalError`...), as from the
async engine, so the recorder treats both alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import JSON, URL, Connection, Dialect, PoolProxiedConnection, TypeDecorator, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.dml import UpdateBase

from hintgate.store.engine import sqlite_begin, sqlite_connect
from hintgate.store.rows import Batch, Encoded, json_serializer, statements

__all__ = ["CACHE_KIB", "CHECKPOINT_EVERY", "SqliteWriter"]

CACHE_KIB = 256
"""The writer connections' SQLite page cache, in KiB (`PRAGMA cache_size`)."""
CHECKPOINT_EVERY = 64
"""Commits on the event loop's connection between two checkpoints run by the thread (a light batch writes
10–20 WAL pages: about SQLite's own automatic checkpoint, every 1,000)."""

_Processor = Callable[[Any], Any]
_Job = tuple[Callable[[], None], "asyncio.Future[None]", asyncio.AbstractEventLoop, bool]


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    if done.done():  # the waiting task was cancelled
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


class _Plan:
    """One statement compiled for SQLite: its SQL, and how a row dict becomes its positional parameters."""

    __slots__ = ("_constants", "_get", "_json", "_processors", "_single", "sql")

    def __init__(self, dialect: Dialect, statement: UpdateBase, keys: Sequence[str]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys))
        names = list(compiled.positiontup or ())
        self.sql = str(compiled)
        self._get = itemgetter(*names)
        self._single = len(names) == 1
        self._constants: dict[str, Any] = {}
        """The statement's own values (`status = 'active'`), by parameter name."""
        self._processors: list[tuple[int, _Processor]] = []
        self._json: list[tuple[int, _Processor]] = []
        """JSON parameters: text that `prepare` encoded already is bound as it is."""
        for index, name in enumerate(names):
            bind = compiled.binds[name]
            if name not in keys:
                self._constants[name] = bind.value
            implementation = bind.type.dialect_impl(dialect)
            processor = implementation.bind_processor(dialect)
            if processor is not None:
                (self._json if _is_json(implementation, dialect) else self._processors).append((index, processor))

    def parameters(self, rows: Iterable[Mapping[str, Any]]) -> list[tuple[Any, ...]]:
        """The positional parameters of each row, bound as SQLAlchemy binds them."""
        get, processors, json, constants, single = (
            self._get,
            self._processors,
            self._json,
            self._constants,
            self._single,
        )
        out: list[tuple[Any, ...]] = []
        for row in rows:
            got = get({**constants, **row} if constants else row)
            if not (processors or json):
                out.append((got,) if single else got)
                continue
            values = [got] if single else list(got)
            for index, processor in processors:
                values[index] = processor(values[index])
            for index, processor in json:
                value = values[index]
                if value.__class__ is Encoded:
                    # As plain text: the driver binds a str subclass only after looking for an adapter for it.
                    values[index] = _text(value)
                elif value is not None:
                    values[index] = processor(value)
            out.append(tuple(values))
        return out


def _is_json(implementation: Any, dialect: Dialect) -> bool:
    """Whether a column binds as JSON and nothing else: plain JSON, or a type decorator over JSON that leaves
    the value alone (`tables.JSONColumn`), so that text encoded already needs no processing."""
    if isinstance(implementation, TypeDecorator):
        if type(implementation).process_bind_param is not TypeDecorator.process_bind_param:
            return False  # the decorator changes the value before the JSON is written
        implementation = implementation.load_dialect_impl(dialect)
    return isinstance(implementation, JSON)


def _close(conn: PoolProxiedConnection) -> None:
    try:
        conn.close()
    except Exception:  # closing a broken connection: nothing more to do with it
        conn.invalidate()


def _wrapped(statement: str, exc: sqlite3.Error) -> DBAPIError:
    """`exc` as SQLAlchemy raises it (`IntegrityError`, `OperationalError`...), naming `statement`."""
    wrapped = DBAPIError.instance(statement, None, exc, sqlite3.Error)
    assert isinstance(wrapped, DBAPIError)
    return wrapped


class _Begin:
    """What `sqlite_begin` uses of a connection, on the driver's own: the store's write transaction
    begins the same way here without a SQLAlchemy transaction around each batch (a quarter of its cost)."""

    __slots__ = ("_raw",)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self._raw = raw

    def get_execution_options(self) -> Mapping[str, Any]:
        return _WRITE

    def exec_driver_sql(self, sql: str) -> None:
        self._raw.execute(sql)


_text = str.__str__
"""An `Encoded` text as a plain `str`."""

_WRITE = {"hintgate_write": True}

_SESSIONS_KEPT = 4096
"""Sessions the writer remembers having written, at most (then it forgets them all and starts again)."""


def _bounded_cache(dbapi_conn: Any, _record: Any) -> None:
    """On the writer's new connection (a `connect` event, after `sqlite_connect`): its page cache is `CACHE_KIB`."""
    dbapi_conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")


def _never_waits(dbapi_conn: Any, _record: Any) -> None:
    """On the event loop's connection (after `_bounded_cache`): no busy wait, no automatic checkpoint."""
    dbapi_conn.execute("PRAGMA busy_timeout=0")
    dbapi_conn.execute("PRAGMA wal_autocheckpoint=0")


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite refused for a lock another connection holds (`SQLITE_BUSY`, any of its kinds)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY


class SqliteWriter:
    """Writes prepared batches to one SQLite file from a thread of its own.

    `write` is called by one task at a time (the recorder's); `reset` and `close` from the same loop.
    """

    def __init__(self, url: URL) -> None:
        # NullPool: closing the connection closes the file, so a reset reopens whatever the path names.
        self._engine = create_engine(
            url.set(drivername="sqlite+pysqlite"), json_serializer=json_serializer, poolclass=NullPool
        )
        event.listen(self._engine, "connect", sqlite_connect)
        event.listen(self._engine, "connect", _bounded_cache)
        # Opened by the thread, used on the loop: never by both at once (`_handed`).
        self._loop_engine = create_engine(
            url.set(drivername="sqlite+pysqlite"),
            json_serializer=json_serializer,
            poolclass=NullPool,
            connect_args={"check_same_thread": False},
        )
        for listener in (sqlite_connect, _bounded_cache, _never_waits):
            event.listen(self._loop_engine, "connect", listener)
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._conn: PoolProxiedConnection | None = None
        self._loop_conn: PoolProxiedConnection | None = None
        """The event loop's connection (`_on_loop`); None until the thread has written a batch, and after a failure."""
        self._handed = 0
        """Batches and resets handed to the thread and not yet done (on the loop): the loop's connection rests."""
        self._loop_commits = 0
        self._plans: dict[tuple[str, tuple[str, ...]], _Plan] = {}
        self._sessions: set[str] = set()
        """Sessions written (started or stubbed) since the connections opened: their stub is left out. Used by the
        connection writing a batch, the thread's or the loop's (never both at once)."""
        self._failed = "BEGIN"
        """The statement running, or that failed (for the error)."""
        self._forget = False
        """Set on the loop (`forget_sessions`), read before the next batch is written."""

    async def write(self, prepare: Callable[[], Batch]) -> None:
        """Prepare a batch and commit it in one transaction, both on the writer's thread, or both on the event
        loop's when the batch is light (`prepare.light()` says so) and the write lock is free at once.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed or refused the batch (nothing of it is written).
        """
        if self._loop_conn is not None and not self._handed and self._on_loop(prepare):
            return
        await self._run(functools.partial(self._write, prepare), handed=True)

    def write_now(self, prepare: Callable[[], Batch]) -> bool:
        """Prepare and commit a light batch on the event loop's connection now, in the caller's step; False (nothing
        written) when the batch is not light, the loop's connection is not open or rests, or the write lock is held
        elsewhere: `write` it then.

        Raises:
            sqlalchemy.exc.DBAPIError: the database failed or refused the batch (nothing of it is written).
        """
        return self._loop_conn is not None and not self._handed and self._on_loop(prepare)

    def forget_sessions(self) -> None:
        """Sessions may have been deleted (a prune): write the stub of every call's session again from now on."""
        self._forget = True

    async def reset(self) -> None:
        """Close the connections (the file may have moved); the next write opens the path again."""
        if self._thread is not None:
            await self._run(self._drop, handed=True)

    async def close(self) -> None:
        """Close the connections and stop the thread."""
        await self.reset()
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join(timeout=5.0)  # idle since the reset: it ends at once
        self._engine.dispose()
        self._loop_engine.dispose()

    def _run(self, job: Callable[[], None], *, handed: bool = False) -> asyncio.Future[None]:
        """Run `job` on the writer's thread; the future settles on the loop once it has run.

        `handed`: the job may use the loop's connection or the sessions written (a batch, a reset): until it has
        run, no batch is committed on the loop.
        """
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name="hintgate-store-writer", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._handed += handed
        self._jobs.put((job, done, loop, handed))
        return done

    def _serve(self) -> None:
        jobs = self._jobs
        while (taken := jobs.get()) is not None:
            job, done, loop, handed = taken
            error: BaseException | None = None
            try:
                job()
            except BaseException as exc:  # handed to the waiting task, which raises it
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(self._ran, done, error, handed)
            del taken, job, done, error  # hold no batch while idle

    def _ran(self, done: asyncio.Future[None], error: BaseException | None, handed: bool) -> None:
        """On the loop, once a job has run on the thread (even if whoever waited for it was cancelled)."""
        self._handed -= handed
        _settle(done, error)

    def _drop(self) -> None:
        self._sessions.clear()
        for conn in (self._conn, self._loop_conn):
            if conn is not None:
                _close(conn)
        self._conn = self._loop_conn = None

    def _write(self, prepare: Callable[[], Batch]) -> None:
        batch = prepare()
        self._failed = "BEGIN"
        try:
            if self._conn is None:
                self._conn = self._engine.raw_connection()  # `sqlite_connect` sets its PRAGMAs
            self._write_on(self._conn, batch)
        except sqlite3.Error as exc:
            self._drop()  # whatever broke, the next attempt starts from a fresh connection
            raise _wrapped(self._failed, exc) from exc
        except DBAPIError:
            self._drop()
            raise
        if self._loop_conn is None:
            with contextlib.suppress(sqlite3.Error, DBAPIError):  # the loop's batches come here meanwhile
                self._loop_conn = self._loop_engine.raw_connection()

    def _on_loop(self, prepare: Callable[[], Batch]) -> bool:
        """Prepare and commit a light batch on the loop's connection; False when it is not light, or another
        connection holds the write lock (nothing of it written: the thread writes it).

        Raises:
            sqlalchemy.exc.DBAPIError: the database failed or refused the batch; the loop's connection is closed
                (the next batch goes to the thread, which opens it again).
        """
        light = getattr(prepare, "light", None)
        if light is None or not light():
            return False
        conn = self._loop_conn
        assert conn is not None
        batch = prepare()
        try:
            self._write_on(conn, batch)
        except sqlite3.Error as exc:
            if isinstance(exc, sqlite3.OperationalError) and _busy(exc):
                return False
            self._loop_conn = None
            self._sessions.clear()
            _close(conn)
            raise _wrapped(self._failed, exc) from exc
        self._loop_commits += 1
        if self._loop_commits % CHECKPOINT_EVERY == 0:
            self._run(self._checkpoint)  # not waited for: the loop's next batches go on meanwhile
        return True

    def _checkpoint(self) -> None:
        """Copy what the WAL holds into the database, as far as readers let it (`PASSIVE`: nobody waits)."""
        with contextlib.suppress(sqlite3.Error, DBAPIError):  # the next one, or the thread's own commits, will
            if self._conn is None:
                self._conn = self._engine.raw_connection()
            self._conn.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")  # type: ignore[union-attr]

    def _write_on(self, conn: PoolProxiedConnection, batch: Batch) -> None:
        """Commit `batch` on `conn`, writing the stubs of sessions written before only if the database asks.

        Raises:
            sqlite3.Error: the statement that failed is `self._failed`; nothing of the batch is written.
        """
        raw = conn.driver_connection
        assert isinstance(raw, sqlite3.Connection)
        self._failed = "BEGIN"
        if self._forget:
            self._forget = False
            self._sessions.clear()
        try:
            self._commit(raw, batch, skip_known=True)
        except sqlite3.IntegrityError:
            if not self._sessions:
                raise
            # A session it left the stub of may have been deleted since: once more, every stub written.
            self._sessions.clear()
            self._commit(raw, batch, skip_known=False)

    def _commit(self, raw: sqlite3.Connection, batch: Batch, *, skip_known: bool) -> None:
        """Write `batch` in one transaction (`BEGIN IMMEDIATE` ... `COMMIT`); rolled back if anything fails.

        With `skip_known`, the stubs of sessions this connection has written are left out.

        Raises:
            sqlite3.Error: the statement that failed is `self._failed`.
        """
        known = self._sessions
        self._failed = "BEGIN"
        sqlite_begin(cast(Connection, _Begin(raw)))  # BEGIN IMMEDIATE
        try:
            for name, statement, planned in statements(batch, "sqlite"):
                rows = planned
                if name == "stubs" and skip_known and known:
                    rows = [row for row in planned if row["id"] not in known]
                    if not rows:
                        continue
                plan = self._plan(name, statement, rows[0])
                self._failed = plan.sql
                raw.executemany(plan.sql, plan.parameters(rows))
            self._failed = "COMMIT"
            raw.commit()
        except BaseException:
            if raw.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    raw.rollback()
            raise
        if len(known) > _SESSIONS_KEPT:
            known.clear()
        known.update(row["id"] for row in batch.sessions)
        known.update(row["id"] for row in batch.stubs)

    def _plan(self, name: str, statement: UpdateBase, row: Mapping[str, Any]) -> _Plan:
        key = (name, tuple(row))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan(self._engine.dialect, statement, key[1])
        return plan
