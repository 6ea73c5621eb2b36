"""Where the database is and how hintgate connects to it: URLs, engines, error messages."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import URL, event, make_url
from sqlalchemy.engine import Connection
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import AsyncAdaptedQueuePool

from hintgate.errors import StoreError
from hintgate.store.async_core import AsyncEngine, create_async_engine
from hintgate.store.rows import json_serializer

__all__ = [
    "MIGRATION_LOCK",
    "async_engine",
    "database_location",
    "database_url",
    "describe",
    "error_detail",
    "sqlite_begin",
    "sqlite_connect",
    "translated",
]

MIGRATION_LOCK = 0x68696E74
"""The PostgreSQL advisory lock key (\"hint\") replicas migrate under."""


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


def database_location(url: str, *, default: bool = False) -> str:
    """Where `url` stores, for people, checked before anything opens it.

    Returns:
        "SQLite database /absolute/path.db" or "PostgreSQL at HOST:PORT (URL, password hidden)".

    Args:
        url: as the user gave it.
        default: it is hintgate's own data dir, which hintgate creates; any other
            SQLite file's directory must exist (a typo should not become a directory tree).

    Raises:
        StoreError: the URL is invalid, or a SQLite file's directory does not exist.
    """
    parsed = _parse(url)
    if parsed.get_backend_name() != "sqlite":
        return describe(parsed)
    if parsed.database in (None, "", ":memory:"):
        return "SQLite in memory (nothing is kept)"
    given = Path(parsed.database or "")
    path = given.absolute()
    if not default and not path.parent.is_dir():
        relative = (
            ""
            if given.is_absolute() or "://" not in url
            else f"; sqlite:///PATH is relative to the working directory, an absolute path takes four slashes: "
            f"sqlite:////{given}"
        )
        what = "is a file, not a directory" if path.parent.exists() else "does not exist"
        raise StoreError(f"database {_mask(url.strip())}: the directory {path.parent} {what}{relative}")
    return f"SQLite database {path}"


def describe(url: URL) -> str:
    """The database `url` names, for messages: its file, or its host with the URL, password masked."""
    if url.get_backend_name() == "sqlite":
        return f"SQLite database {url.database}"
    where = f"{url.host or 'localhost'}:{url.port or 5432}"
    shown = url.set(drivername="postgresql").render_as_string(hide_password=True)
    return f"PostgreSQL at {where} ({shown})"


def error_detail(exc: BaseException) -> str:
    """The first line of what a database or driver error says, for messages."""
    orig = getattr(exc, "orig", None)
    detail = str(orig if orig is not None else exc).strip() or type(exc).__name__
    return detail.splitlines()[0]


@contextmanager
def translated(url: URL, doing: str) -> Iterator[None]:
    """Map database and driver errors to `StoreError`, naming the database (password masked)."""
    try:
        yield
    except StoreError:
        raise
    except (SQLAlchemyError, OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot {doing} {describe(url)}: {error_detail(exc)}") from exc
    except Exception as exc:
        # asyncpg raises its own errors (bad password, unknown database) while connecting.
        if type(exc).__module__.partition(".")[0] in {"asyncpg", "aiosqlite", "alembic"}:
            raise StoreError(f"cannot {doing} {describe(url)}: {error_detail(exc)}") from exc
        raise


# -- engine ---------------------------------------------------------------


def sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    """On every new SQLite connection (a `connect` event): WAL, `synchronous=NORMAL`, busy timeout, foreign keys."""
    # Let SQLAlchemy's "begin" hook issue BEGIN itself (the pysqlite driver would
    # defer it past DDL and cannot take the write lock up front).
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=10000", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def sqlite_begin(conn: Connection) -> None:
    """On every SQLite transaction (a `begin` event): `BEGIN IMMEDIATE` for a write one (`queries.begin_write`)."""
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("hintgate_write") else "BEGIN")


def async_engine(url: URL) -> AsyncEngine:
    """The engine of `url` (a `database_url`): SQLite with its pragmas and write transactions, or PostgreSQL."""
    if url.get_backend_name() == "sqlite":
        if url.database == ":memory:":
            # One connection for everyone: a second would open a second, empty database.
            engine = create_async_engine(
                url, json_serializer=json_serializer, poolclass=AsyncAdaptedQueuePool, pool_size=1, max_overflow=0
            )
        else:
            engine = create_async_engine(url, json_serializer=json_serializer)
        event.listen(engine.sync_engine, "connect", sqlite_connect)
        event.listen(engine.sync_engine, "begin", sqlite_begin)
        return engine
    return create_async_engine(url, json_serializer=json_serializer, pool_pre_ping=True, connect_args={"timeout": 10})
