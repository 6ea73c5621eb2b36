"""The recorder's and the API's queries, the store's own upkeep, and the operators' settings tables, over a connection.

Rows come back as plain dicts: times as ISO 8601 strings in UTC, JSON columns
decoded. `Store` wraps each in a connection and translates errors.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Unpack

from sqlalchemy import ColumnElement, Row, Table, and_, case, delete, func, or_, select, true, update

from hintgate.store.async_core import AsyncConnection, AsyncEngine
from hintgate.store.filters import CallFilter, SessionFilters
from hintgate.store.notify import OVERRIDES, notify
from hintgate.store.tables import counters, sessions, tool_calls, upsert

__all__ = [
    "Versioned",
    "active_replicas",
    "begin_write",
    "call",
    "calls",
    "close_abandoned",
    "overrides_version",
    "prune",
    "recent_sessions",
    "session",
    "sessions_with_prefix",
]

OVERRIDES_COUNTER = "overrides"


@asynccontextmanager
async def begin_write(engine: AsyncEngine) -> AsyncIterator[AsyncConnection]:
    """A connection in a write transaction.

    On SQLite it begins with `BEGIN IMMEDIATE` (see `hintgate.store`), taking the
    write lock up front so that a read-then-write transaction cannot fail half
    way when another writer got there first.
    """
    async with engine.connect() as plain:
        conn = await plain.execution_options(hintgate_write=True)
        async with conn.begin():
            yield conn


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(UTC).isoformat()


def _as_dict(row: Row[Any]) -> dict[str, Any]:
    out = dict(row._mapping)
    for key, value in out.items():
        if isinstance(value, datetime):
            out[key] = _iso(value)
    return out


async def recent_sessions(conn: AsyncConnection, limit: int, **filters: Unpack[SessionFilters]) -> list[dict[str, Any]]:
    """The newest `limit` sessions, newest first; only those of `status`, `replica`, `user` (a name) and
    `user_key` (who opened them, `Principal.key`) when given, and only `owner`'s (the sessions a reader may
    see at all: a person's key) when given."""
    # A misspelt filter fails, as a keyword the signature did not name would: `owner` keeps others' sessions out.
    if unknown := sorted(filters.keys() - SessionFilters.__optional_keys__):
        raise TypeError(f"recent_sessions() got an unexpected keyword argument {unknown[0]!r}")
    user, status, replica = filters.get("user"), filters.get("status"), filters.get("replica")
    where: list[ColumnElement[bool]] = []
    if user is not None:
        where.append(sessions.c.user_name == user)
    for key in (filters.get("owner"), filters.get("user_key")):
        if key is not None:
            where.append(sessions.c.user_key == key)
    if status is not None:
        where.append(sessions.c.status == status)
    if replica is not None:
        where.append(sessions.c.replica == replica)
    query = (
        select(sessions)
        .where(and_(True, *where))
        .order_by(sessions.c.started_at.desc(), sessions.c.id.desc())
        .limit(limit)
    )
    return [_as_dict(row) for row in await conn.execute(query)]


async def sessions_with_prefix(conn: AsyncConnection, prefix: str, limit: int) -> list[str]:
    """The ids of sessions that start with `prefix`, at most `limit` (ordered, so the answer is stable)."""
    query = (
        select(sessions.c.id)
        .where(sessions.c.id.startswith(prefix, autoescape=True))
        .order_by(sessions.c.id)
        .limit(limit)
    )
    # SQLite's LIKE ignores case and PostgreSQL's does not: the prefix matches as given on both.
    return [row.id for row in await conn.execute(query) if row.id.startswith(prefix)]


async def session(conn: AsyncConnection, session_id: str, *, owner: str | None = None) -> dict[str, Any] | None:
    """One session with aggregates over its calls.

    Besides the session's columns: `first_call_at`, `last_call_at`, `errors`
    (calls with an error), `input_tokens`, `output_tokens`, and `tiers` and
    `verdicts`, each a `{value: count}` map (`null` counted under `"none"`).
    `tool_call_count` and `total_tokens` are the counters the recorder keeps.
    """
    where = sessions.c.id == session_id
    if owner is not None:  # another person's session is no session for this reader
        where = and_(where, sessions.c.user_key == owner)
    row = (await conn.execute(select(sessions).where(where))).first()
    if row is None:
        return None
    out = _as_dict(row)
    c = tool_calls.c
    query = (
        select(
            c.tier,
            c.verdict,
            func.count().label("n"),
            func.sum(case((c.error.is_not(None), 1), else_=0)).label("errors"),
            func.min(c.started_at).label("first"),
            func.max(c.started_at).label("last"),
            func.sum(c.input_tokens).label("input_tokens"),
            func.sum(c.output_tokens).label("output_tokens"),
        )
        .where(c.session_id == session_id)
        .group_by(c.tier, c.verdict)
    )
    tiers: dict[str, int] = {}
    verdicts: dict[str, int] = {}
    errors = input_tokens = output_tokens = 0
    first: datetime | None = None
    last: datetime | None = None
    for group in await conn.execute(query):
        tier = group.tier or "none"
        verdict = group.verdict or "none"
        tiers[tier] = tiers.get(tier, 0) + group.n
        verdicts[verdict] = verdicts.get(verdict, 0) + group.n
        errors += int(group.errors or 0)
        input_tokens += int(group.input_tokens or 0)
        output_tokens += int(group.output_tokens or 0)
        first = group.first if first is None or (group.first and group.first < first) else first
        last = group.last if last is None or (group.last and group.last > last) else last
    out.update(
        first_call_at=_iso(first),
        last_call_at=_iso(last),
        errors=errors,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        tiers=tiers,
        verdicts=verdicts,
    )
    return out


_REFUSED = ("deny", "denied")
_UNANSWERED = ("expired", "withdrawn")


def _not_refused(verdict: ColumnElement[Any]) -> ColumnElement[bool]:
    return or_(verdict.is_(None), verdict.not_in(_REFUSED + _UNANSWERED))


async def tool_usage(conn: AsyncConnection, *, owner: str | None = None) -> dict[str, dict[str, Any]]:
    """Per tool the gateway lists: `calls`, `errors`, `denied`, `expired`, `last_used` (ISO) and `p50_ms`.

    `errors` counts calls that ran, or were let through, and failed; a call the
    policy or a person denied is `denied`, and one asked about that nobody
    answered in time (or whose caller left) is `expired`: neither is the
    tool's failure.

    The median is the middle one or two durations of the tool's calls, ordered
    by the database, so no tool's history is read into memory. With `owner`,
    over that person's calls only.
    """
    c = tool_calls.c
    mine = c.user_key == owner if owner is not None else true()
    query = (
        select(
            c.tool_name,
            func.count().label("calls"),
            func.sum(case((c.error.is_not(None) & _not_refused(c.verdict), 1), else_=0)).label("errors"),
            func.sum(case((c.verdict.in_(_REFUSED), 1), else_=0)).label("denied"),
            func.sum(case((c.verdict.in_(_UNANSWERED), 1), else_=0)).label("expired"),
            func.max(c.started_at).label("last"),
        )
        .where(mine)
        .group_by(c.tool_name)
    )
    usage: dict[str, dict[str, Any]] = {}
    for row in await conn.execute(query):
        usage[row.tool_name] = {
            "calls": int(row.calls),
            "errors": int(row.errors or 0),
            "denied": int(row.denied or 0),
            "expired": int(row.expired or 0),
            "last_used": _iso(row.last),
            "p50_ms": None,
        }
    for name, found in usage.items():
        n = found["calls"]
        middle = (
            select(c.duration_ms)
            .where(c.tool_name == name, mine)
            .order_by(c.duration_ms)
            .offset((n - 1) // 2)
            .limit(2 - n % 2)
        )
        values = [float(v) for v in (await conn.scalars(middle))]
        found["p50_ms"] = round(sum(values) / len(values), 3) if values else None
    return usage


def _moment(value: datetime | str) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


async def calls(
    conn: AsyncConnection, where: CallFilter | None = None, *, limit: int = 50, offset: int = 0
) -> list[dict[str, Any]]:
    """Calls matching every field `where` gives (`CallFilter`; `None`: every call).

    Newest first; within one session (`where.session_id` given) in the order
    they started, so that paging walks a session from its beginning.

    Raises:
        ValueError: `since` or `until` is a string that is no ISO 8601 time.
    """
    wanted = where or CallFilter()
    c = tool_calls.c
    conditions: list[ColumnElement[bool]] = []
    for column, value in (
        (c.session_id, wanted.session_id),
        (c.server_id, wanted.server),
        (c.tool_name, wanted.tool),
        (c.tier, wanted.tier),
        (c.verdict, wanted.verdict),
        (c.user_name, wanted.user),
        (c.user_key, wanted.owner),
        (c.user_key, wanted.user_key),
    ):
        if value is not None:
            conditions.append(column == value)
    if wanted.since is not None:
        conditions.append(c.started_at >= _moment(wanted.since))
    if wanted.until is not None:
        conditions.append(c.started_at < _moment(wanted.until))
    in_session = wanted.session_id is not None
    order = (c.started_at, c.id) if in_session else (c.started_at.desc(), c.id.desc())
    query = select(tool_calls).where(and_(True, *conditions)).order_by(*order).limit(limit).offset(offset)
    return [_as_dict(row) for row in await conn.execute(query)]


async def call(conn: AsyncConnection, call_id: str, *, owner: str | None = None) -> dict[str, Any] | None:
    """One call by id; with `owner`, only when that person made it."""
    where = tool_calls.c.id == call_id
    if owner is not None:
        where = and_(where, tool_calls.c.user_key == owner)
    row = (await conn.execute(select(tool_calls).where(where))).first()
    return None if row is None else _as_dict(row)


async def _bump(conn: AsyncConnection) -> None:
    await conn.execute(update(counters).where(counters.c.name == OVERRIDES_COUNTER).values(value=counters.c.value + 1))
    await notify(conn, OVERRIDES)


@dataclass(frozen=True, slots=True)
class Versioned:
    """A table of operators' settings under the overrides version: every change to one bumps it (`overrides_version`).

    Each method works in the caller's connection (and transaction).

    Attributes:
        table: the table.
        key: the columns that key a row (its primary key), in the order rows are read.
    """

    table: Table
    key: tuple[str, ...]

    async def rows(self, conn: AsyncConnection) -> list[dict[str, Any]]:
        """Every stored row, in key order."""
        query = select(self.table).order_by(*(self.table.c[name] for name in self.key))
        return [_as_dict(row) for row in await conn.execute(query)]

    async def put(self, conn: AsyncConnection, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert each row, or replace the columns it gives where its key is stored; bump the version when any."""
        for row in rows:
            stmt = upsert(self.table, conn.dialect.name).values(**row)
            stmt = stmt.on_conflict_do_update(
                index_elements=[self.table.c[name] for name in self.key],
                set_={name: stmt.excluded[name] for name in row if name not in self.key},
            )
            await conn.execute(stmt)
        if rows:
            await _bump(conn)

    async def delete(self, conn: AsyncConnection, *where: ColumnElement[bool]) -> int:
        """Delete the rows matching every condition (every row when none); bump the version when any went.

        Returns:
            How many rows went.
        """
        removed = (await conn.execute(delete(self.table).where(*where))).rowcount
        if removed:
            await _bump(conn)
        return removed


async def overrides_version(conn: AsyncConnection) -> int:
    """The overrides counter: it changes whenever any override does."""
    value = await conn.scalar(select(counters.c.value).where(counters.c.name == OVERRIDES_COUNTER))
    return int(value or 0)


async def active_replicas(conn: AsyncConnection, *, prefix: str) -> list[str]:
    """The replicas whose names start with `prefix` that have active sessions."""
    query = select(sessions.c.replica).where(sessions.c.status == "active", sessions.c.replica.startswith(prefix))
    return sorted({row[0] for row in await conn.execute(query.distinct())})


async def close_abandoned(conn: AsyncConnection, replicas: Sequence[str]) -> int:
    """Close the sessions `replicas` left active (they crashed); returns how many.

    Each ends at its last call's start, or at its own start when it has none:
    the last moment it is known to have been alive.
    """
    last_call = (
        select(func.max(tool_calls.c.started_at)).where(tool_calls.c.session_id == sessions.c.id).scalar_subquery()
    )
    result = await conn.execute(
        update(sessions)
        .where(sessions.c.replica.in_(list(replicas)), sessions.c.status == "active")
        .values(status="closed", ended_at=func.coalesce(last_call, sessions.c.started_at))
    )
    return result.rowcount


async def prune(conn: AsyncConnection, retention: int) -> int:
    """Keep the newest `retention` sessions with their calls; delete older closed ones. Returns how many went.

    Active sessions are never deleted, however old (a live client keeps its
    history); they still count among the newest. Calls without a session go
    when they are older than the oldest session kept.
    """
    cutoff = await conn.scalar(
        select(sessions.c.started_at).order_by(sessions.c.started_at.desc()).offset(retention - 1).limit(1)
    )
    if cutoff is None:
        return 0
    old: ColumnElement[bool] = and_(sessions.c.started_at < cutoff, sessions.c.status == "closed")
    # Explicit, not ON DELETE CASCADE alone: SQLite enforces foreign keys only when asked per connection.
    await conn.execute(delete(tool_calls).where(tool_calls.c.session_id.in_(select(sessions.c.id).where(old))))
    await conn.execute(delete(tool_calls).where(tool_calls.c.session_id.is_(None), tool_calls.c.started_at < cutoff))
    return (await conn.execute(delete(sessions).where(old))).rowcount
