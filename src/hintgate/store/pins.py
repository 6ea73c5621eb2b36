"""The store's tool pins: every tool's accepted and last seen definition, their history, and a version counter.

Shared by every replica on the same database: one that writes a pin bumps
the `pins` counter, the others poll it (`Pins.version`) and reload.

The history is bounded against a server that changes a tool in a loop: an
event equal to one of the tool's latest `REPEAT_WINDOW` lines (same kind,
definition, actor and detail) is counted on that line (`repeats`, `last_at`)
rather than written again. A block always gets a line of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Row, func, insert, select, tuple_, update

from hintgate.errors import StoreError
from hintgate.hints.pins import ChangeKind, Pin, PinEvent, PinState, pin_hash
from hintgate.store.async_core import AsyncConnection
from hintgate.store.part import StorePart
from hintgate.store.tables import counters, pin_events, tool_pins, upsert
from hintgate.stored_state import PIN_COLUMNS

__all__ = ["PINS_COUNTER", "REPEAT_WINDOW", "Pins"]

PINS_COUNTER = "pins"
REPEAT_WINDOW = 2
"""A tool's latest events an automatic one is compared with: two catch a server flipping between two definitions,
which wrote 429 lines in 20 s; now it writes two, each with its count."""
# A block is in force while it is its tool's latest line (`_read`), so one always gets a line of its own.
_ALWAYS_A_LINE = frozenset({ChangeKind.BLOCKED})
_HELD_IN_QUERY = 500  # held tools named in the query that looks for their blocks (two parameters each)

_PIN_KEY = ("server", "tool")
_PIN_VALUES = tuple(c for c in PIN_COLUMNS if c not in _PIN_KEY)
"""The columns of a pin an upsert replaces: all but its key."""


def _pin(row: Row[Any]) -> Pin:
    values = dict(row._mapping)
    values["state"] = PinState(values["state"])
    values["reviewed"] = bool(values["reviewed"])
    return Pin(**values)


def _row(pin: Pin) -> dict[str, Any]:
    return {c: getattr(pin, c) for c in PIN_COLUMNS} | {"state": pin.state.value}


async def _read(conn: AsyncConnection, server: str | None = None) -> list[Pin]:
    """Pins by server and tool, each held one with its operator's block when the latest event is one for
    the definition held (a later change, acceptance or removal ends a block)."""
    query = select(tool_pins).order_by(tool_pins.c.server, tool_pins.c.tool)
    if server is not None:
        query = query.where(tool_pins.c.server == server)
    pins = [_pin(row) for row in await conn.execute(query)]
    held = [p.key for p in pins if p.state is PinState.QUARANTINED]
    if not held:
        return pins
    e = pin_events.c
    latest = select(func.max(e.id)).group_by(e.server, e.tool)
    if len(held) <= _HELD_IN_QUERY:  # the held tools' events only (by the index); else every tool's latest
        latest = latest.where(tuple_(e.server, e.tool).in_(held))
    blocks = {
        (row.server, row.tool): row
        for row in await conn.execute(
            select(e.server, e.tool, e.sha256, e.at, e.actor, e.detail).where(
                e.id.in_(latest.scalar_subquery()), e.kind == ChangeKind.BLOCKED.value
            )
        )
    }
    return [
        pin.block(actor=row.actor, at=row.at, reason=row.detail)
        if (row := blocks.get(pin.key)) is not None and pin.state is PinState.QUARANTINED and row.sha256 == pin.sha256
        else pin
        for pin in pins
    ]


async def _write(conn: AsyncConnection, pins: Sequence[Pin], events: Sequence[PinEvent]) -> None:
    if pins:
        stmt = upsert(tool_pins, conn.dialect.name)
        stmt = stmt.on_conflict_do_update(
            index_elements=[tool_pins.c.server, tool_pins.c.tool],
            set_={c: stmt.excluded[c] for c in _PIN_VALUES},
        )
        await conn.execute(stmt, [_row(pin) for pin in pins])  # one statement for every pin, not one each
        await conn.execute(update(counters).where(counters.c.name == PINS_COUNTER).values(value=counters.c.value + 1))
    for event in events:
        await _add_event(conn, event)


async def _add_event(conn: AsyncConnection, event: PinEvent) -> None:
    """Write `event`, or count it on the same event (kind, definition, actor, detail) among the tool's latest
    `REPEAT_WINDOW` lines: a server flipping between two definitions gets two lines, each with its count."""
    e = pin_events.c
    if event.kind not in _ALWAYS_A_LINE:
        recent = await conn.execute(
            select(e.id, e.kind, e.sha256, e.actor, e.detail)
            .where(e.server == event.server, e.tool == event.tool)
            .order_by(e.id.desc())
            .limit(REPEAT_WINDOW)
        )
        same = (event.kind.value, event.sha256, event.actor, event.detail)
        for row in recent:
            if (row.kind, row.sha256, row.actor, row.detail) == same:
                counted = update(pin_events).where(e.id == row.id).values(repeats=e.repeats + 1, last_at=event.at)
                await conn.execute(counted)
                return
    await conn.execute(
        insert(pin_events).values(
            server=event.server,
            tool=event.tool,
            kind=event.kind.value,
            sha256=event.sha256,
            at=event.at,
            actor=event.actor,
            detail=event.detail,
        )
    )


class Pins(StorePart):
    """The tool pins kept in a database, with their history: `Store.pins`.


    Made with the store's engine and URL (`StorePart`).
    """

    async def all(self, *, server: str | None = None) -> list[Pin]:
        """Every pin (of one server), by server and tool."""
        async with self.reading("read tool pins from") as conn:
            return await _read(conn, server)

    async def save(self, pins: Sequence[Pin], events: Sequence[PinEvent] = ()) -> None:
        """Insert or replace pins and append their events, in one transaction; committed on return."""
        if not pins and not events:
            return
        async with self.writing("write tool pins to") as conn:
            await _write(conn, pins, events)

    async def accept(self, choose: Callable[[Pin], bool], *, actor: str, review: bool = False) -> list[Pin]:
        """Accept the definition last seen of every pin `choose` picks that is not accepted as it is.

        With `review`, also the chosen pins accepted without an operator (on
        first use): an operator's acceptance covers the scan's findings too.

        Read and written in one transaction, so an acceptance is never lost to a
        concurrent one. Returns the pins accepted.

        Raises:
            StoreError: an empty actor, or a database failure.
        """
        if not actor:
            raise StoreError("an acceptance needs the name of who accepts")

        def accept(pin: Pin, now: datetime) -> Pin | None:
            stale = pin.state is PinState.QUARANTINED or pin.accepted_sha256 != pin.sha256
            return pin.accept(actor=actor, at=now) if choose(pin) and (stale or (review and not pin.reviewed)) else None

        return await self._decide("accept tool pins in", ChangeKind.ACCEPTED, accept, actor=actor)

    async def block(self, choose: Callable[[Pin], bool], *, actor: str, reason: str = "") -> list[Pin]:
        """Keep the chosen quarantined pins blocked: still held, recorded as an operator's decision.

        A `blocked` event (who, when, `reason`) goes into each pin's history; the
        pin stays blocked until its definition changes, it is accepted or removed.
        Returns the pins blocked (a pin not quarantined is left out).

        Raises:
            StoreError: an empty actor, or a database failure.
        """
        if not actor:
            raise StoreError("keeping a tool blocked needs the name of who decides")

        def block(pin: Pin, now: datetime) -> Pin | None:
            held = choose(pin) and pin.state is PinState.QUARANTINED
            return pin.block(actor=actor, at=now, reason=reason) if held else None

        return await self._decide("keep tool pins blocked in", ChangeKind.BLOCKED, block, actor=actor, detail=reason)

    async def _decide(
        self,
        doing: str,
        kind: ChangeKind,
        decide: Callable[[Pin, datetime], Pin | None],
        *,
        actor: str,
        detail: str = "",
    ) -> list[Pin]:
        """An operator's decision on pins: each pin `decide` changes (None: left as it is) is written with a
        `kind` event by `actor`; read and written in one transaction, so that none is lost to a concurrent one.
        Returns the pins written."""
        now = datetime.now(UTC)
        async with self.writing(doing) as conn:
            decided = [new for pin in await _read(conn) if (new := decide(pin, now)) is not None]
            events = [PinEvent(p.server, p.tool, kind, p.sha256, now, actor, detail) for p in decided]
            await _write(conn, decided, events)
        return decided

    async def import_definitions(self, entries: Sequence[tuple[str, str, str]], *, actor: str) -> list[Pin]:
        """Accept definitions from a pins file: (server, tool, canonical form) each.

        A tool with no pin gets one, accepted (its listing is compared with it
        when the server is next seen); a pin whose last seen definition is the
        file's is accepted; one seen otherwise is judged against the file's as a
        change would be (`Pin.with_accepted`): held unless cosmetic or only
        riskier. Returns the pins written.
        """
        now = datetime.now(UTC)
        written: list[Pin] = []
        events: list[PinEvent] = []
        async with self.writing("import tool pins into") as conn:
            stored = {p.key: p for p in map(_pin, await conn.execute(select(tool_pins)))}
            for server, tool, definition in entries:
                pin = stored.get((server, tool)) or Pin.unseen(server, tool, definition, at=now)
                imported = pin.with_accepted(definition, actor=actor, at=now)
                if imported.same_as(pin):
                    continue
                written.append(imported)
                events.append(PinEvent(server, tool, ChangeKind.IMPORTED, pin_hash(definition), now, actor))
            await _write(conn, written, events)
        return written

    async def history(self, server: str, tool: str, *, limit: int = 50) -> list[dict[str, Any]]:
        """A tool's pin events, newest first: `{"kind", "sha256", "at", "actor", "detail", "repeats", "last_at"}`.

        `repeats` counts how often the event happened (`last_at` the last time, when more than once).
        """
        e = pin_events.c
        query = (
            select(e.kind, e.sha256, e.at, e.actor, e.detail, e.repeats, e.last_at)
            .where(e.server == server, e.tool == tool)
            .order_by(e.id.desc())
            .limit(limit)
        )
        async with self.reading("read pin history from") as conn:
            return [
                {
                    **row._mapping,
                    "at": row.at.astimezone(UTC).isoformat(),
                    "last_at": row.last_at.astimezone(UTC).isoformat() if row.last_at is not None else None,
                }
                for row in await conn.execute(query)
            ]

    async def version(self) -> int:
        """A number that changes whenever any pin does: cheap to poll from other replicas."""
        async with self.reading("read the pins version from") as conn:
            value = await conn.scalar(select(counters.c.value).where(counters.c.name == PINS_COUNTER))
            return int(value or 0)
