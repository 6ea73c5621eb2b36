"""What a gateway's first tool listing depends on in a SQLite store, read with the standard library.

The stored pins (a tool changed since it was pinned is held), the operators'
hint, title and confirm overrides and the stored policy settings decide what
the first `tools/list` says, so they are read before it is answered. Opening
the full store (`hintgate.store`) imports SQLAlchemy, a good part of a stdio
gateway's start-up: a client that launches the gateway would wait for it. A
stdio gateway recording to an existing SQLite file reads these rows here
instead, read-only with `sqlite3`, answers its first listing from them, and
opens the full store right after; no tool call runs before the store is open
(`hintgate.server.gateway.Gateway.attach_store`).

The runtime server changes are read too; their entries are sealed
(`hintgate.sealing`), opened with the key the store seals them with.

Only a database this version would open as it is qualifies: a SQLite file
that exists, stamped with `SCHEMA_REVISION`, whose sealed server entries
open with the key given. A file that does not exist yet (a first start)
holds nothing: it is read as empty (the caller checks first that the store
will be able to create it), and the store creates it after the first
answer. Anything else (an older or newer schema, a file SQLite cannot read, a
PostgreSQL URL, a server entry sealed under another key or with no key
given) gives `None`, and the gateway opens the full store first, as before,
with the same errors. The rows are read as
the store's own parts read them (`tests/test_stored_state.py` compares the
two on one file), from the store's own tables and columns by name (`READS`:
a test holds each to `hintgate.store.tables`, so a column the store adds,
renames or drops fails it, without this module importing SQLAlchemy).
"""

from __future__ import annotations

import base64
import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hintgate.errors import StoreError
from hintgate.hints.pins import ChangeKind, Pin, PinState

__all__ = ["PIN_COLUMNS", "READS", "SCHEMA_REVISION", "WHOLE_ROWS", "StoredState", "read_stored_state", "sqlite_file"]

SCHEMA_REVISION = "0021"
"""The newest migration's revision, which the store stamps a current database with (`store.schema.HEAD_REVISION`
is this one; a test checks it is Alembic's head): a new migration moves it."""

PIN_COLUMNS = (
    "server",
    "tool",
    "name",
    "sha256",
    "definition",
    "accepted_sha256",
    "accepted_definition",
    "state",
    "reason",
    "reviewed",
    "first_seen_at",
    "last_seen_at",
    "accepted_at",
    "accepted_by",
    "launch",
)
"""The columns of `tool_pins`, one for each field of `hintgate.hints.pins.Pin` the store keeps (its block is
kept in `pin_events`); the store writes and reads them by these names too (`hintgate.store.pins`)."""
_PIN_TIMES = ("first_seen_at", "last_seen_at", "accepted_at")

READS: dict[str, tuple[str, ...]] = {
    "counters": ("name", "value"),
    "hint_overrides": ("tool", "hint", "value", "updated_at", "updated_by"),
    "title_overrides": ("tool", "title", "updated_at", "updated_by"),
    "tool_confirms": ("tool", "confirm", "updated_at", "updated_by"),
    "policy_settings": ("setting", "value", "updated_at", "updated_by"),
    "person_preferences": ("person", "setting", "value", "updated_at"),
    "server_changes": ("name", "action", "config", "changed_at", "changed_by"),
    "tool_pins": PIN_COLUMNS,
    "pin_events": ("id", "server", "tool", "kind", "sha256", "at", "actor", "detail"),
    "scan_verdicts": ("key", "rules", "verdict"),
}
"""The store's tables read ahead, and the columns read of each, as `hintgate.store.tables` names them."""

WHOLE_ROWS = frozenset(READS) - {"pin_events", "scan_verdicts"}
"""The tables whose rows are read whole, as the store's parts return them: every column of the store's table."""


def _select(table: str, order: str) -> str:
    """The query of a table's rows read whole (`READS`), in `order`."""
    return f"SELECT {', '.join(READS[table])} FROM {table} ORDER BY {order}"


@dataclass(frozen=True, slots=True)
class StoredState:
    """The rows a first listing depends on, as the store's parts return them.

    Attributes:
        path: the SQLite file they were read from.
        pins: every tool's pin by server and tool, a held one with its operator's block.
        pins_version: the `pins` counter when they were read.
        hints: the hint overrides (`{"tool", "hint", "value", "updated_at", "updated_by"}`), by tool and hint.
        titles: the title overrides (`{"tool", "title", ...}`), by tool.
        confirms: the confirm settings (`{"tool", "confirm", ...}`), by tool name or glob.
        policy_settings: the stored policy settings (`{"setting", "value", ...}`), by key path.
        person_preferences: people's own preferences (`{"person", "setting", "value", ...}`), by person and key.
        overrides_version: the `overrides` counter when they were read.
        server_changes: the runtime server changes (`{"name", "action", "config", "changed_at", "changed_by"}`,
            each entry opened), oldest first.
        scan_verdicts: the poisoning scans kept under the current version of its rules, by definition key
            (`hintgate.scan.verdicts`), as `Store.scan_verdicts.under` reads them.
    """

    path: Path
    pins: list[Pin]
    pins_version: int
    hints: list[dict[str, Any]]
    titles: list[dict[str, Any]]
    confirms: list[dict[str, Any]]
    policy_settings: list[dict[str, Any]]
    person_preferences: list[dict[str, Any]]
    overrides_version: int
    server_changes: list[dict[str, Any]]
    scan_verdicts: dict[str, str]

    @property
    def location(self) -> str:
        """Where the store is, for people, as `hintgate.store.engine.database_location` says it."""
        return f"SQLite database {self.path.absolute()}"


def sqlite_file(url: str) -> Path | None:
    """The file a plain SQLite store URL (`sqlite:///PATH`, or a bare path) names; None for anything else.

    Anything unusual (a query string, a host, an in-memory database, another backend) is None: the full
    store parses it and says what is wrong with it.
    """
    raw = url.strip()
    if not raw:
        return None
    if "://" not in raw:
        return Path(raw).expanduser()
    scheme, _, rest = raw.partition("://")
    if scheme not in ("sqlite", "sqlite+aiosqlite") or not rest.startswith("/") or "?" in rest:
        return None
    database = rest[1:]
    if not database or database == ":memory:":
        return None
    return Path(database).expanduser()


def read_stored_state(url: str, key: str | None = None) -> StoredState | None:
    """The stored state of the SQLite file `url` names, read-only; None when it must be opened the full way.

    A file that does not exist yet is read as empty (nothing is stored, nothing is created here). None when
    the URL is not a plain SQLite file, the path is not a file, SQLite cannot read it, its schema is not
    `SCHEMA_REVISION`, or a runtime server change's sealed entry does not open with `key`
    (`hintgate.sealing.kept_key`).
    """
    path = sqlite_file(url)
    if path is None:
        return None
    if not path.exists() and not path.is_symlink():
        # A first start: the store would create the file, empty. Its rows are none, its counters 0.
        return StoredState(
            path=path,
            pins=[],
            pins_version=0,
            hints=[],
            titles=[],
            confirms=[],
            policy_settings=[],
            person_preferences=[],
            overrides_version=0,
            server_changes=[],
            scan_verdicts={},
        )
    if not path.is_file():
        return None
    try:
        with _read_only(path) as conn:
            versions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
            if versions != [SCHEMA_REVISION]:
                return None
            changes = _server_changes(conn, key)
            if changes is None:
                return None
            counters = dict(conn.execute(_select("counters", "name")).fetchall())
            return StoredState(
                path=path,
                pins=_pins(conn),
                pins_version=int(counters.get("pins") or 0),
                hints=_rows(conn, _select("hint_overrides", "tool, hint"), booleans=("value",)),
                titles=_rows(conn, _select("title_overrides", "tool")),
                confirms=_rows(conn, _select("tool_confirms", "tool")),
                policy_settings=_rows(conn, _select("policy_settings", "setting"), json_columns=("value",)),
                person_preferences=_rows(
                    conn, _select("person_preferences", "person, setting"), json_columns=("value",)
                ),
                overrides_version=int(counters.get("overrides") or 0),
                server_changes=changes,
                scan_verdicts=_scan_verdicts(conn),
            )
    except (sqlite3.Error, ValueError, TypeError, KeyError, StoreError):
        # Unreadable, damaged or not hintgate's: the full store opens it and says what is wrong.
        return None


@contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    # mode=ro: this read never creates, migrates or writes the file; one transaction sees one state.
    with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=5.0)) as conn:
        conn.row_factory = sqlite3.Row
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.rollback()


def _time(value: object) -> datetime | None:
    """A timestamp as the store reads it back: aware, in UTC (SQLite keeps it as text without a zone)."""
    if value is None:
        return None
    moment = datetime.fromisoformat(str(value))
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _rows(
    conn: sqlite3.Connection, query: str, *, booleans: tuple[str, ...] = (), json_columns: tuple[str, ...] = ()
) -> list[dict[str, Any]]:
    found = []
    for row in conn.execute(query):
        values = dict(row)
        moment = _time(values["updated_at"])
        values["updated_at"] = None if moment is None else moment.isoformat()  # as the store's queries give it
        for name in booleans:
            values[name] = bool(values[name])
        for name in json_columns:
            values[name] = None if values[name] is None else json.loads(values[name])
        found.append(values)
    return found


def _server_changes(conn: sqlite3.Connection, key: str | None) -> list[dict[str, Any]] | None:
    """The runtime server changes with their entries opened; None when one is sealed and cannot be opened here."""
    from hintgate.sealing import SEALED_ENTRY, server_entries  # the cryptography library: only when needed

    rows = []
    for row in conn.execute(_select("server_changes", "changed_at, name")):
        values = dict(row)
        values["changed_at"] = _time(values["changed_at"])
        config = None if values["config"] is None else json.loads(values["config"])
        if isinstance(config, dict) and set(config) == {SEALED_ENTRY} and isinstance(config[SEALED_ENTRY], str):
            if key is None:
                return None
            config = server_entries(key).open(values["name"], base64.b64decode(config[SEALED_ENTRY]))
        values["config"] = config
        rows.append(values)
    return rows


def _scan_verdicts(conn: sqlite3.Connection) -> dict[str, str]:
    """The scan verdicts made under the current rules (none when the scan's files cannot be read)."""
    from hintgate.scan.verdicts import rules_version

    try:
        rules = rules_version()
    except OSError:
        return {}
    key, kept, verdict = READS["scan_verdicts"]
    query = f"SELECT {key}, {verdict} FROM scan_verdicts WHERE {kept} = ?"
    return {row[0]: row[1] for row in conn.execute(query, (rules,))}


def _pins(conn: sqlite3.Connection) -> list[Pin]:
    """Pins by server and tool; a held one with its block when its tool's latest event blocks the definition held."""
    pins = []
    for row in conn.execute(_select("tool_pins", "server, tool")):
        values = dict(row)
        values["state"] = PinState(values["state"])
        values["reviewed"] = bool(values["reviewed"])
        for name in _PIN_TIMES:
            values[name] = _time(values[name])
        pins.append(Pin(**values))
    if not any(pin.state is PinState.QUARANTINED for pin in pins):
        return pins
    blocks = {
        (row["server"], row["tool"]): row
        for row in conn.execute(
            "SELECT server, tool, sha256, at, actor, detail FROM pin_events"
            " WHERE id IN (SELECT max(id) FROM pin_events GROUP BY server, tool) AND kind = ?",
            (ChangeKind.BLOCKED.value,),
        )
    }
    return [
        pin.block(actor=row["actor"], at=_at(row["at"]), reason=row["detail"])
        if (row := blocks.get(pin.key)) is not None
        and pin.state is PinState.QUARANTINED
        and row["sha256"] == pin.sha256
        else pin
        for pin in pins
    ]


def _at(value: object) -> datetime:
    moment = _time(value)
    if moment is None:
        raise ValueError("a pin event without a time")
    return moment
