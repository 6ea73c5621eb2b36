"""The shared approval queue: pending approvals as rows of `approvals`, answered atomically, followed by replicas.

`StoredApprovals` is the `hintgate.policy.approvals.Ledger` of a store:

- `add` writes a pending approval, stamped with this replica.
- `settle` is one `UPDATE ... WHERE id = :id AND state = 'pending'`: of two
  racing answers exactly one changes the row; the other is told the state
  that won. An approval past its `expires_at` cannot be answered: answering it
  marks it `expired`. An answer reads the row first (its holder, its state,
  its expiry), so one that comes too late is told what won from that read.
- `watch` wakes this replica's waiter when another replica or process
  settles its approval: on PostgreSQL a `NOTIFY` sent in the settling
  transaction, backed by a 1 s poll; on SQLite a poll every `POLL` seconds,
  only while this replica has approvals waiting.

A notification is a wake-up, never an answer. Any role that can connect to
the database may `LISTEN` and `pg_notify` on hintgate's channels, grants or
not; so the payload is empty (it tells a listener nothing) and whatever it
says, the watcher re-reads its approvals' rows and acts only on a state the
table holds, which only a conditional `UPDATE` by a role with write grants
can have put there. Many notifications before one read cost one read.

A gateway that opens the store marks `expired` the approvals that its own
replica id and dead `HOST:PID` replicas of its host left pending: their
calls died with those processes, so nothing may run when they are answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import URL, Row, delete, select, update

from hintgate.errors import StoreError
from hintgate.policy.approvals import Answer, Ended, PendingApproval, Settlement, note_in
from hintgate.policy.principal import Approvers
from hintgate.store.async_core import AsyncConnection, AsyncEngine
from hintgate.store.notify import APPROVALS, Notifications, notify
from hintgate.store.part import StorePart
from hintgate.store.stopping import STOP_WAIT, stop_task
from hintgate.store.tables import approvals

__all__ = ["KEEP_SETTLED", "POLL", "StoredApprovals", "expire_replicas", "pending_replicas", "prune_settled"]

logger = logging.getLogger(__name__)

POLL = 0.2
"""Seconds between checks for answers made elsewhere, on SQLite, while this replica has approvals waiting."""
POLL_NOTIFIED = 1.0
"""The same on PostgreSQL, a fallback behind `NOTIFY` (which is at once)."""
KEEP_SETTLED = 1000
"""Settled approvals kept (newest first), to answer a late answer with what happened."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it runs, as another user
        return True
    return True


def dead_here(replica: str) -> bool:
    """Whether `replica` is a `HOST:PID` of this host whose process is gone."""
    host, _, pid = replica.rpartition(":")
    return host == socket.gethostname() and pid.isdigit() and not _alive(int(pid))


async def pending_replicas(conn: AsyncConnection, *, prefix: str) -> list[str]:
    """The replicas whose names start with `prefix` that hold pending approvals."""
    query = select(approvals.c.replica).where(approvals.c.state == "pending", approvals.c.replica.startswith(prefix))
    return sorted({row[0] for row in await conn.execute(query.distinct())})


async def expire_replicas(conn: AsyncConnection, replicas: Sequence[str], *, now: datetime) -> int:
    """Mark `expired` the approvals `replicas` left pending (they stopped); returns how many."""
    result = await conn.execute(
        update(approvals)
        .where(approvals.c.replica.in_(list(replicas)), approvals.c.state == "pending")
        .values(
            state="expired",
            answered_by="hintgate",
            answered_via="restart",
            answered_at=now,
            end_reason="the gateway holding the call stopped before it was answered, so the call never ran",
        )
    )
    return result.rowcount


async def prune_settled(conn: AsyncConnection, keep: int = KEEP_SETTLED) -> int:
    """Delete settled approvals older than the newest `keep`; returns how many went."""
    cutoff = await conn.scalar(
        select(approvals.c.answered_at)
        .where(approvals.c.state != "pending")
        .order_by(approvals.c.answered_at.desc())
        .offset(keep)
        .limit(1)
    )
    if cutoff is None:
        return 0
    old = (approvals.c.state != "pending") & (approvals.c.answered_at <= cutoff)
    return (await conn.execute(delete(approvals).where(old))).rowcount


def _ended(row: Row[Any] | dict[str, Any], *, won: bool) -> Ended:
    values = dict(row._mapping) if isinstance(row, Row) else row
    answer = values.get("answer")
    reason = values.get("end_reason") or values["state"]
    actor, via = values.get("answered_by") or "", values.get("answered_via") or ""
    return Ended(
        state=values["state"],
        reason=reason,
        won=won,
        note=note_in(reason, values["state"], actor, via),
        answer=Answer(answer) if answer else None,
        actor=values.get("answered_by"),
    )


def row_json(row: Row[Any]) -> dict[str, Any]:
    """An approval row as a plain dict: times as ISO 8601 strings in UTC."""
    out = dict(row._mapping)
    for key, value in out.items():
        if isinstance(value, datetime):
            out[key] = value.astimezone(UTC).isoformat()
    return out


def _pending_approval(row: Row[Any]) -> PendingApproval:
    values = row._mapping
    replica = values["replica"]
    return PendingApproval(
        id=values["id"],
        tool=values["tool"],
        title=values["title"] or values["tool"],
        server=values["server"],
        arguments=values["arguments"],
        reason=values["reason"],
        warnings=list(values["warnings"] or []),
        session_id=values["session_id"],
        client_name=values["client_name"],
        created_at=values["asked_at"],
        expires_at=values["expires_at"],
        _future=None,
        title_origin=values["title_origin"] or "declared",
        # Another host's gateway is taken to be alive: it withdraws its own approvals when callers leave.
        caller_alive=lambda: not dead_here(replica),
        call_id=values["call_id"],
        hints=values["hints"],
        replica=replica,
        caller=values["user_name"],
        caller_key=values["user_key"],
        approvers=Approvers.from_json(values["approvers"]),
        view=values["view"],
    )


async def _row(conn: AsyncConnection, approval_id: str) -> Row[Any] | None:
    return (await conn.execute(select(approvals).where(approvals.c.id == approval_id))).first()


async def _expire(conn: AsyncConnection, row: Row[Any], *, now: datetime) -> Ended:
    """Mark `expired` a pending approval past its expiry, which an answer just tried; the answer loses."""
    at = row.expires_at.isoformat(timespec="seconds")
    expired = {
        "state": "expired",
        "answered_by": "hintgate",
        "answered_via": "timeout",
        "answered_at": now,
        "end_reason": f"nobody answered before it expired at {at}",
    }
    settled = update(approvals).where(approvals.c.id == row.id, approvals.c.state == "pending").values(expired)
    if not (await conn.execute(settled)).rowcount:  # settled since it was read: that is what won
        won = await _row(conn, row.id)
        return _ended(won if won is not None else row, won=False)
    await notify(conn, APPROVALS)
    return _ended({**dict(row._mapping), **expired}, won=False)


class StoredApprovals(StorePart):
    """The approvals of one store, shared by every replica and process that opens it.

    Attributes:
        replica: this gateway instance, stamped on the approvals it adds.
    """

    def __init__(self, engine: AsyncEngine, url: URL, *, replica: str, notifications: Notifications) -> None:
        super().__init__(engine, url)
        self.replica = replica
        self._notifications = notifications
        self._watchers: dict[str, Callable[[Ended], None]] = {}
        self._poller: asyncio.Task[None] | None = None
        self._subscribed = False
        self._woken = asyncio.Event()

    # -- the ledger ---------------------------------------------------------

    async def add(self, approval: PendingApproval) -> None:
        """Write a new pending approval, stamped with this replica.

        Raises:
            StoreError: the database cannot take it.
        """
        values = {
            "id": approval.id,
            "call_id": approval.call_id,
            "session_id": approval.session_id,
            "client_name": approval.client_name,
            "user_name": approval.caller,
            "view": approval.view,
            "user_key": approval.caller_key,
            "approvers": approval.approvers.to_json() if approval.approvers is not None else None,
            "tool": approval.tool,
            "title": approval.title,
            "title_origin": approval.title_origin,
            "server": approval.server,
            "arguments": dict(approval.arguments) if approval.arguments is not None else None,
            "hints": dict(approval.hints) if approval.hints is not None else None,
            "warnings": list(approval.warnings),
            "reason": approval.reason,
            "asked_at": approval.created_at,
            "expires_at": approval.expires_at,
            "replica": self.replica,
            "state": "pending",
        }
        async with self.writing("add an approval to") as conn:
            await conn.execute(approvals.insert().values(values))
            await notify(conn, APPROVALS)

    async def settle(self, approval_id: str, settlement: Settlement) -> Ended | None:
        """Move a pending approval to the settlement's state in one atomic update; see
        `hintgate.policy.approvals.Ledger`.

        An answer (approved, denied) to an approval past its `expires_at`, or
        held by a dead replica of this host, marks it `expired` instead and loses.

        Raises:
            StoreError: the database cannot be reached.
        """
        now = datetime.now(UTC)
        end = settlement.end
        state = end.state
        settleable = ("pending", *settlement.replace)
        async with self.writing("answer an approval in") as conn:
            where = (approvals.c.id == approval_id) & approvals.c.state.in_(settleable)
            if state in ("approved", "denied"):
                # An answer reads the row first: who holds it, whether it is still open and not past
                # its expiry. What the read rules out needs no update (a late answer: one query).
                where &= approvals.c.expires_at > now
                row = await _row(conn, approval_id)
                if row is None:
                    return None
                if row.replica != self.replica and dead_here(row.replica):
                    await expire_replicas(conn, [row.replica], now=now)
                elif row.state not in settleable:
                    return _ended(row, won=False)
                elif row.state == "pending" and row.expires_at <= now:
                    return await _expire(conn, row, now=now)
            values = {
                "state": state,
                "answer": end.answer.value if end.answer is not None else None,
                "answered_by": end.actor,
                "answered_via": settlement.via,
                "answered_at": now,
                "end_reason": end.reason,  # says the note, if any: `Settlement.answered` puts it there
            }
            changed = (await conn.execute(update(approvals).where(where).values(values))).rowcount
            if changed:
                await notify(conn, APPROVALS)
                return settlement.won()
            # Settled meanwhile (or just now, its holder dead), or past its expiry.
            row = await _row(conn, approval_id)
            if row is None:
                return None
            if row.state != "pending":
                return _ended(row, won=False)
            return await _expire(conn, row, now=now)

    async def pending(self) -> list[PendingApproval]:
        """Every pending approval not past its expiry, oldest first, on every replica.

        Raises:
            StoreError: the database cannot be read.
        """
        return [_pending_approval(row) for row in await self._pending_rows()]

    async def pending_rows(self) -> list[dict[str, Any]]:
        """Every pending approval not past its expiry, oldest first, as plain dicts."""
        return [row_json(row) for row in await self._pending_rows()]

    async def _pending_rows(self) -> list[Row[Any]]:
        now = datetime.now(UTC)
        query = (
            select(approvals)
            .where(approvals.c.state == "pending", approvals.c.expires_at > now)
            .order_by(approvals.c.asked_at, approvals.c.id)
        )
        async with self.reading("read approvals from") as conn:
            return list(await conn.execute(query))

    async def find(self, prefix: str) -> list[dict[str, Any]]:
        """The approvals whose id starts with `prefix` (pending or settled), newest first, at most 10.

        Raises:
            StoreError: an empty prefix, or the database cannot be read.
        """
        if not prefix.strip():
            raise StoreError("an approval id (or a unique prefix of one) is needed")
        query = (
            select(approvals)
            .where(approvals.c.id.startswith(prefix.strip(), autoescape=True))
            .order_by(approvals.c.asked_at.desc())
            .limit(10)
        )
        async with self.reading("read approvals from") as conn:
            return [row_json(row) for row in await conn.execute(query)]

    async def get(self, approval_id: str) -> dict[str, Any] | None:
        """One approval by id, in any state."""
        async with self.reading("read an approval from") as conn:
            row = (await conn.execute(select(approvals).where(approvals.c.id == approval_id))).first()
        return None if row is None else row_json(row)

    # -- following answers made elsewhere --------------------------------------

    def watch(self, approval_id: str, on_settled: Callable[[Ended], None]) -> None:
        """Call `on_settled` once, when the approval is settled by anyone (this replica included)."""
        self._watchers[approval_id] = on_settled
        if self._notifications.available and not self._subscribed:
            self._notifications.subscribe(APPROVALS, self._notified)
            self._subscribed = True
        if self._poller is None or self._poller.done():
            self._poller = asyncio.get_running_loop().create_task(self._poll(), name="approvals-poll")

    def unwatch(self, approval_id: str) -> None:
        """Stop watching an approval."""
        self._watchers.pop(approval_id, None)

    async def close(self, *, within: float = STOP_WAIT) -> None:
        """Stop following answers, waiting at most `within` seconds for the poller to end (`stop_task`)."""
        self._watchers.clear()
        poller, self._poller = self._poller, None
        await stop_task(poller, within=within)

    def _notified(self, _payload: str) -> None:
        # Whoever sent it and whatever it says: the rows are read again, and only they are believed.
        if self._watchers:
            self._woken.set()

    async def _poll(self) -> None:
        """Check the watched approvals until none is left: when notified, else every `POLL` seconds."""
        interval = POLL_NOTIFIED if self._notifications.available else POLL
        while self._watchers:
            # Not `asyncio.wait_for`: on Python 3.11 it returns, instead of raising, when the poller is cancelled
            # as it is woken, and the poller would outlive its close.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(interval):
                    await self._woken.wait()
            self._woken.clear()
            ids = list(self._watchers)
            if not ids:
                break
            query = select(approvals).where(approvals.c.id.in_(ids), approvals.c.state != "pending")
            try:
                async with self.reading("read approvals from") as conn:
                    rows = list(await conn.execute(query))
            except StoreError as exc:
                logger.warning("%s; trying again", exc)
                continue
            for row in rows:
                callback = self._watchers.pop(row.id, None)
                if callback is not None:
                    callback(_ended(row, won=False))
