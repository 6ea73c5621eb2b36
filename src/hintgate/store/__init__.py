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
appends to a deque; a background task commits every `commit_interval`
(50 ms by default). After a `kill -9` every record enqueued more than one
commit interval plus one commit (a few ms) earlier is in the database; a clean
`close()` loses nothing.

Sessions: a replica (`replica`, from `Settings.replica`, else `HOST:PID`)
closes, when it opens the store, the sessions it left active when it crashed.
Replicas sharing a host name must set `HINTGATE_REPLICA`. Retention keeps the
newest `retention` sessions with their calls; the recorder prunes at most
every `PRUNE_EVERY` seconds, and once on open.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import URL, event, make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from hintgate.errors import StoreError
from hintgate.hints.annotations import Hint
from hintgate.store import queries, tokens
from hintgate.store.recorder import CallRecord, Recorder, RecorderFailed, SessionRecord, json_serializer

__all__ = [
    "DEFAULT_COMMIT_INTERVAL",
    "DEFAULT_RESPONSE_CAP",
    "DEFAULT_RETENTION",
    "PRUNE_EVERY",
    "CallRecord",
    "SessionRecord",
    "Store",
    "StoreError",
    "database_url",
]

logger = logging.getLogger("hintgate.store")

DEFAULT_RETENTION = 100
"""Sessions kept, with their calls; older ones are pruned."""
DEFAULT_RESPONSE_CAP = 65536
"""Bytes of a call's response (and arguments) JSON kept; the rest is cut and the original size recorded."""
DEFAULT_COMMIT_INTERVAL = 0.05
"""Seconds between the recorder's commits: the window a `kill -9` can lose."""
PRUNE_EVERY = 5.0
"""Seconds between retention passes (each is a few indexed deletes)."""

_MIGRATIONS = Path(__file__).parent / "migrations"
_MIGRATION_LOCK = 0x68696E74  # "hint": the PostgreSQL advisory lock key replicas migrate under


# -- URLs -----------------------------------------------------------------


def _mask(raw: str) -> str:
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", raw)


def _parse(raw: str) -> URL:
    raw = raw.strip()
    if not raw:
        raise StoreError("the database URL is empty")
    if "://" not in raw:
        return URL.create("sqlite+aiosqlite", database=str(Path(raw).expanduser()))
    try:
        url = make_url(raw)
    except (ArgumentError, ValueError) as exc:
        raise StoreError(f"invalid database URL {_mask(raw)}: {exc}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        if url.host or url.username or url.port:
            raise StoreError(
                f"invalid database URL {_mask(raw)}: a SQLite URL names a file, "
                "sqlite:///relative/path.db or sqlite:////absolute/path.db"
            )
        database = url.database or ":memory:"
        if database != ":memory:":
            database = str(Path(database).expanduser())
        return url.set(drivername="sqlite+aiosqlite", database=database)
    if backend in {"postgresql", "postgres"}:
        query = dict(url.query)
        if "sslmode" in query:  # libpq's name for what asyncpg calls ssl
            query.setdefault("ssl", query.pop("sslmode"))
        return url.set(drivername="postgresql+asyncpg", query=query)
    raise StoreError(
        f"unsupported database URL {url.render_as_string(hide_password=True)}: "
        "hintgate stores to SQLite (sqlite:///PATH) or PostgreSQL (postgresql://USER@HOST/DB)"
    )


def database_url(url: str) -> str:
    """The SQLAlchemy URL of the database to use, with hintgate's async driver.

    Args:
        url: as the user gave it (`Settings.store_url` when a gateway opens it):
            `sqlite:///PATH`, a bare file path, `postgresql://...` or
            `postgres://...`; any driver named in it is replaced.
            `sqlite:///:memory:` is accepted for tests (nothing is durable).

    Raises:
        StoreError: the URL cannot be parsed or names another database (the password is masked).
    """
    parsed = _parse(url)
    if parsed.database == ":memory:":
        return "sqlite+aiosqlite:///:memory:"  # rendered, it would read %3Amemory%3A
    return parsed.render_as_string(hide_password=False)


def _describe(url: URL) -> str:
    if url.get_backend_name() == "sqlite":
        return f"SQLite database {url.database}"
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    shown = url.set(drivername="postgresql").render_as_string(hide_password=True)
    return f"PostgreSQL at {where} ({shown})"


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    detail = str(orig if orig is not None else exc).strip() or type(exc).__name__
    return detail.splitlines()[0]


@contextmanager
def _translated(url: URL, doing: str) -> Iterator[None]:
    """Map database and driver errors to `StoreError`, naming the database (password masked)."""
    try:
        yield
    except StoreError:
        raise
    except (SQLAlchemyError, OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot {doing} {_describe(url)}: {_reason(exc)}") from exc
    except Exception as exc:
        # asyncpg raises its own errors (bad password, unknown database) while connecting.
        if type(exc).__module__.partition(".")[0] in {"asyncpg", "aiosqlite", "alembic"}:
            raise StoreError(f"cannot {doing} {_describe(url)}: {_reason(exc)}") from exc
        raise


# -- engine ---------------------------------------------------------------


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" hook issue BEGIN itself (the pysqlite driver would
    # defer it past DDL and cannot take the write lock up front).
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=10000", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("hintgate_write") else "BEGIN")


def default_replica() -> str:
    """`HOST:PID`: unique among gateways on one host, so that each closes only what a dead one left."""
    return f"{socket.gethostname()}:{os.getpid()}"


async def _abandoned(conn: AsyncConnection, replica: str) -> list[str]:
    """This replica, and every `HOST:PID` replica of this host whose process is gone.

    Stdio gateways are many on one host, each started by a client; a crashed
    one's sessions would stay active forever unless a later one closes them.
    """
    host = socket.gethostname()
    found = [replica]
    for other in await queries.active_replicas(conn, prefix=f"{host}:"):
        pid = other.rpartition(":")[2]
        if other != replica and pid.isdigit() and not _alive(int(pid)):
            found.append(other)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _create_engine(url: URL) -> AsyncEngine:
    if url.get_backend_name() == "sqlite":
        if url.database == ":memory:":
            # One connection for everyone: a second would open a second, empty database.
            engine = create_async_engine(
                url, json_serializer=json_serializer, poolclass=AsyncAdaptedQueuePool, pool_size=1, max_overflow=0
            )
        else:
            engine = create_async_engine(url, json_serializer=json_serializer)
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
        return engine
    return create_async_engine(url, json_serializer=json_serializer, pool_pre_ping=True, connect_args={"timeout": 10})


def _upgrade(conn: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = conn
    command.upgrade(config, "head")


# -- the store ------------------------------------------------------------


class Store:
    """Sessions, calls and overrides in one database; open with `await Store.open(url)`.

    Attributes:
        replica: this gateway instance's id, stamped on the sessions it serves.
        url: the database URL, password masked.
        retention: sessions kept.
        response_cap: bytes of response and arguments JSON kept per call.
        commit_interval: seconds between the recorder's commits.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        url: URL,
        *,
        replica: str,
        retention: int,
        response_cap: int,
        commit_interval: float,
    ) -> None:
        self._engine = engine
        self._url = url
        self.url = url.render_as_string(hide_password=True)
        self.replica = replica
        self.retention = retention
        self.response_cap = response_cap
        self.commit_interval = commit_interval
        self._recorder = Recorder(
            engine,
            replica=replica,
            response_cap=response_cap,
            commit_interval=commit_interval,
            after_commit=self._maybe_prune,
        )
        self._last_prune = time.monotonic()
        self._closed = False

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        retention: int = DEFAULT_RETENTION,
        response_cap: int = DEFAULT_RESPONSE_CAP,
        commit_interval: float = DEFAULT_COMMIT_INTERVAL,
        replica: str | None = None,
        recover: bool = True,
    ) -> Store:
        """Open (creating and migrating as needed) the database, and start recording.

        Args:
            url: see `database_url`.
            retention: sessions to keep, at least 1.
            response_cap: bytes of each call's response and arguments JSON to keep.
            commit_interval: seconds between commits of recorded calls.
            replica: this instance's id (`Settings.replica`); else `HOST:PID`.
            recover: close the sessions this replica left active (it crashed). A
                gateway does; a reader such as the CLI must not, or it would close
                the sessions a gateway of the same replica is serving.

        Raises:
            StoreError: the URL is invalid, or the database cannot be created, reached or migrated.
        """
        if retention < 1:
            raise ValueError(f"retention must be at least 1 session, got {retention}")
        if response_cap < 0 or commit_interval < 0:
            raise ValueError("response_cap and commit_interval cannot be negative")
        parsed = make_url(database_url(url))
        replica = replica or default_replica()
        if parsed.get_backend_name() == "sqlite" and parsed.database != ":memory:":
            path = Path(parsed.database or "")
            with _translated(parsed, "create the directory of"):
                path.parent.mkdir(parents=True, exist_ok=True)
        # The tokenizer takes ~0.5 s to load: now, off the loop, rather than in the first batch.
        await asyncio.to_thread(tokens.load)
        engine = _create_engine(parsed)
        try:
            with _translated(parsed, "open"):
                async with queries.begin_write(engine) as conn:
                    if conn.dialect.name == "postgresql":
                        await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
                    await conn.run_sync(_upgrade)
                async with queries.begin_write(engine) as conn:
                    closed = await queries.close_abandoned(conn, await _abandoned(conn, replica)) if recover else 0
                    pruned = await queries.prune(conn, retention)
        except BaseException:
            await engine.dispose()
            raise
        if closed:
            logger.info("closed %d sessions that replica %r left active", closed, replica)
        if pruned:
            logger.info("removed %d old sessions (retention %d)", pruned, retention)
        store = cls(
            engine,
            parsed,
            replica=replica,
            retention=retention,
            response_cap=response_cap,
            commit_interval=commit_interval,
        )
        store._recorder.start()
        return store

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self, *, timeout: float = 30.0) -> None:
        """Commit everything recorded so far, then release the database.

        Args:
            timeout: seconds to keep trying when the database is failing.

        Raises:
            StoreError: records could not be written before `timeout`.
        """
        if self._closed:
            return
        self._closed = True
        try:
            lost = await self._recorder.close(timeout)
        finally:
            await self._engine.dispose()
        if lost:
            raise StoreError(f"{lost} records could not be written to {_describe(self._url)} before closing")

    async def flush(self) -> None:
        """Wait until everything recorded so far is committed.

        Raises:
            StoreError: the recorder stopped (its error is logged) or the store is closed.
        """
        try:
            await self._recorder.flush()
        except RecorderFailed as exc:
            raise StoreError(str(exc)) from exc

    @property
    def dropped(self) -> int:
        """Records lost so far: refused by the database, or pushed out of a full queue while it was down."""
        return self._recorder.dropped

    # -- recording (never blocks, never raises) ---------------------------

    def session_started(self, rec: SessionRecord) -> None:
        """Record that a client session began."""
        if self._closed:
            self._recorder.dropped += 1
            return
        self._recorder.session_started(rec)

    def session_closed(self, session_id: str, ended_at: datetime) -> None:
        """Record that a client session ended."""
        if self._closed:
            self._recorder.dropped += 1
            return
        self._recorder.session_closed(session_id, ended_at)

    def record_call(self, rec: CallRecord) -> None:
        """Record one tool call: O(1), all encoding and counting happen later in the recorder."""
        if self._closed:
            self._recorder.dropped += 1
            return
        self._recorder.record_call(rec)

    # -- queries ------------------------------------------------------------

    async def recent_sessions(self, limit: int = 10) -> list[dict[str, Any]]:
        """The newest `limit` sessions, newest first."""
        with _translated(self._url, "read sessions from"):
            async with self._engine.connect() as conn:
                return await queries.recent_sessions(conn, limit)

    async def session(self, session_id: str) -> dict[str, Any] | None:
        """One session with aggregates over its calls (see `queries.session`), or `None`."""
        with _translated(self._url, "read a session from"):
            async with self._engine.connect() as conn:
                return await queries.session(conn, session_id)

    async def calls(
        self,
        *,
        session_id: str | None = None,
        server: str | None = None,
        tool: str | None = None,
        tier: str | None = None,
        verdict: str | None = None,
        since: datetime | str | None = None,
        until: datetime | str | None = None,
        limit: int = 50,
        offset: int = 0,
    ) -> list[dict[str, Any]]:
        """Calls matching every filter: newest first, or in order within one session (see `queries.calls`)."""
        try:
            with _translated(self._url, "read calls from"):
                async with self._engine.connect() as conn:
                    return await queries.calls(
                        conn,
                        session_id=session_id,
                        server=server,
                        tool=tool,
                        tier=tier,
                        verdict=verdict,
                        since=since,
                        until=until,
                        limit=limit,
                        offset=offset,
                    )
        except ValueError as exc:  # an unreadable `since` or `until`
            raise StoreError(f"invalid time filter: {exc}") from None

    async def call(self, call_id: str) -> dict[str, Any] | None:
        """One call by id, or `None`."""
        with _translated(self._url, "read a call from"):
            async with self._engine.connect() as conn:
                return await queries.call(conn, call_id)

    # -- overrides --------------------------------------------------------

    async def overrides(self) -> list[dict[str, Any]]:
        """Every stored override: `{"tool", "hint", "value", "updated_at", "updated_by"}`, by tool and hint."""
        with _translated(self._url, "read overrides from"):
            async with self._engine.connect() as conn:
                return await queries.overrides(conn)

    async def set_override(self, tool: str, hint: str, value: bool, *, actor: str = "operator") -> None:
        """Set one hint of one tool, replacing any stored value; committed on return.

        Args:
            tool: the tool's name as the gateway lists it.
            hint: a hint's wire name: readOnlyHint, destructiveHint, idempotentHint or openWorldHint.
            value: the hint's value.
            actor: who set it, kept beside it.

        Raises:
            StoreError: an empty tool name, an unknown hint, a value that is not a bool, or a database failure.
        """
        if not tool:
            raise StoreError("an override needs a tool name")
        _check_hint(hint)
        if not isinstance(value, bool):
            raise StoreError(f"a hint is true or false, got {value!r}")
        with _translated(self._url, "write an override to"):
            async with queries.begin_write(self._engine) as conn:
                await queries.set_override(conn, tool, hint, value, actor=actor, now=datetime.now(UTC))

    async def clear_override(self, tool: str, hint: str | None = None) -> int:
        """Remove one stored override of `tool`, or all of them when `hint` is `None`; returns how many went."""
        if hint is not None:
            _check_hint(hint)
        with _translated(self._url, "remove an override from"):
            async with queries.begin_write(self._engine) as conn:
                return await queries.clear_override(conn, tool, hint)

    async def overrides_version(self) -> int:
        """A number that changes whenever any stored override does: cheap to poll from other replicas."""
        with _translated(self._url, "read the overrides version from"):
            async with self._engine.connect() as conn:
                return await queries.overrides_version(conn)

    # -- upkeep -----------------------------------------------------------

    async def prune(self) -> int:
        """Apply retention now: delete closed sessions older than the newest `retention`, with their calls.

        Returns:
            How many sessions were deleted.
        """
        self._last_prune = time.monotonic()
        with _translated(self._url, "prune"):
            async with queries.begin_write(self._engine) as conn:
                return await queries.prune(conn, self.retention)

    async def _maybe_prune(self) -> None:
        if time.monotonic() - self._last_prune < PRUNE_EVERY:
            return
        try:
            await self.prune()
        except StoreError as exc:
            logger.warning("%s; retrying later", exc)


def _check_hint(hint: str) -> None:
    try:
        Hint(hint)
    except ValueError:
        names = ", ".join(h.value for h in Hint)
        raise StoreError(f"unknown hint {hint!r}: one of {names}") from None
