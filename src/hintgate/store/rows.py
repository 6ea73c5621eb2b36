"""What the recorder writes: the records, and the rows and statements they become.

`prepare` turns queued records into rows (JSON encoding, size caps, token
counts: CPU work the recorder runs in a worker thread); `write` executes a
prepared batch inside the caller's transaction.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy.sql.dml import UpdateBase

from hintgate.jsontext import replace_lone_surrogates
from hintgate.store.async_core import AsyncConnection
from hintgate.store.tables import UTCDateTime, as_utc, sessions, tool_calls, upsert
from hintgate.store.tokens import count_tokens, output_text

__all__ = [
    "CALL",
    "CLOSE",
    "START",
    "Batch",
    "CallRecord",
    "Encoded",
    "Item",
    "SessionRecord",
    "call_row",
    "completion_values",
    "encode_json",
    "json_serializer",
    "prepare",
    "statements",
    "write",
]

logger = logging.getLogger("hintgate.store")


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A client session as it starts (the session record).

    Attributes:
        id: a UUID string; anything else raises `ValueError` here, at construction.
        client_name: `clientInfo.name` from the client's `initialize`.
        client_version: `clientInfo.version`.
        started_at: when the session began (an aware datetime; naive is taken as UTC).
        transport: `"stdio"` or `"http"`.
        replica: the gateway instance serving it (`Store.replica`).
        user: the person who opened it (`api-token` for the API token); None when the gateway knows no users.
        view: the view it was served (`/mcp/NAME`, `serve --view NAME`); None for the whole catalog.
        user_key: who that is (`hintgate.policy.principal.Principal.key`), for what is theirs; None likewise.
    """

    id: str
    client_name: str | None
    client_version: str | None
    started_at: datetime
    transport: str
    replica: str
    user: str | None = None
    view: str | None = None
    user_key: str | None = None

    def __post_init__(self) -> None:
        uuid.UUID(self.id)  # the id must be a valid UUID


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One tool call as the gateway saw it (the tool-call record).

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
        parent_call_id: the call this one repeats, if any.
        execution_type: `"direct"`, `"retry"` (the gateway's second attempt after a transient
            failure) or `"client_retry"` (the client's identical call of an idempotent tool).
        hints: `{"annotations": {...}, "provenance": {...}, "tier": ...}` in force at call time.
            Encoded once per mapping (the catalog's snapshot of a tool serves all its calls):
            pass a new mapping when the hints change, never a mutated one.
        tier: the tool's tier at call time.
        decision: the policy decision: `{"verdict", "reason", "source", "approver", "approval", "waited_ms"}`.
        verdict: the decision's verdict, a column of its own for filtering.
        user: the person who made the call (`api-token` for the API token); None when the gateway knows no users.
        config_path: the config file of the gateway that served the call (absolute); None when it had none
            (`--demo`, `--python`, a gateway built in code).
        user_key: who that is (`hintgate.policy.principal.Principal.key`), for what is theirs; None likewise.
        arguments_json: `arguments` as `encode_json` wrote them, when the caller encoded them already
            (the recorder then does not again); None: the recorder encodes them.
        response_json: `response` likewise.
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
    user: str | None = None
    config_path: str | None = None
    user_key: str | None = None
    arguments_json: str | None = None
    response_json: str | None = None


class Encoded(str):
    """JSON text encoded already, which `json_serializer` passes through untouched."""

    __slots__ = ()


def json_serializer(value: Any) -> str:
    """The engine's JSON serializer: pre-encoded text as is, anything else compact JSON."""
    if isinstance(value, Encoded):
        return str.__str__(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


START, CALL, CLOSE = 0, 1, 2
"""The kinds of a queued record: a session start, a tool call, a session close (`Item`'s first field)."""
Item = tuple[int, Any, asyncio.Future[bool] | None]
"""(kind, record, the future of whoever waits for its commit)."""

# PostgreSQL's JSONB refuses the NUL character (`\u0000`); an escape preceded by an
# even number of backslashes is a real NUL, an odd number is a literal backslash.
_NUL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u0000")


@dataclass(slots=True)
class Batch:
    """Rows ready for one transaction, prepared off the event loop."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    stubs: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    increments: list[dict[str, Any]] = field(default_factory=list)
    closes: list[dict[str, Any]] = field(default_factory=list)


def _clean(text: str | None) -> str | None:
    """Text a database accepts: no NUL, no lone surrogate."""
    if text is None:
        return None
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    # ASCII holds no surrogate: most texts (ids, names, tiers) are, and are kept without one more call.
    return text if text.isascii() else replace_lone_surrogates(text)


# One encoder for every record: `json.dumps` with options builds a new one per call.
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)


def _dumps(value: Any) -> str:
    try:
        text = _ENCODER.encode(value)
    except (TypeError, ValueError) as exc:
        text = json.dumps({"unencodable": str(exc)})
    text = replace_lone_surrogates(text)
    if "\\u0000" in text:
        text = _NUL_ESCAPE.sub(r"\1\\ufffd", text)
    return text


def encode_json(value: Any) -> Encoded:
    """`value` as the store keeps it: compact JSON, no NUL and no lone surrogate (each replaced by U+FFFD).

    Each character of a string is written the same way wherever it is, so a text is in a string of
    `value` only if its own encoding (without the quotes) is in the encoding of `value`.
    """
    return Encoded(_dumps(value))


def encoded_from(written: str) -> Encoded | None:
    """What `encode_json` writes of a value, from its JSON as `json.JSONEncoder(ensure_ascii=False,
    separators=(",", ":"), default=str)` wrote it (the result scan's); None when it may hold a number JSON has
    not (`NaN`, `Infinity`: `encode_json` writes a note instead), so the value is to be encoded again."""
    if "NaN" in written or "Infinity" in written:
        return None
    text = replace_lone_surrogates(written)
    if "\\u0000" in text:
        text = _NUL_ESCAPE.sub(r"\1\\ufffd", text)
    return Encoded(text)


# The hints in force are one mapping per tool until the catalog changes: encoded once per mapping.
# Each entry keeps its mapping alive, so that its id cannot name another one meanwhile.
_HINTS_JSON: dict[int, tuple[Mapping[str, Any], Encoded]] = {}
_HINTS_KEPT = 4096


def _hints_json(hints: Mapping[str, Any]) -> Encoded:
    cached = _HINTS_JSON.get(id(hints))
    if cached is not None and cached[0] is hints:
        return cached[1]
    text = Encoded(_dumps(hints))
    if len(_HINTS_JSON) >= _HINTS_KEPT:
        _HINTS_JSON.clear()
    _HINTS_JSON[id(hints)] = (hints, text)
    return text


# A decision's JSON by its items: most calls are decided alike (a tool's rule, no approver, no wait), and each call
# builds its own mapping of the same values. Only mappings whose values are all text or None are kept: no
# `1 == 1.0 == True` can stand one value's JSON for another's.
_DECISIONS_JSON: dict[tuple[tuple[str, str | None], ...], Encoded] = {}
_DECISIONS_KEPT = 1024


def _decision_json(decision: Mapping[str, Any]) -> Encoded:
    items = tuple(decision.items())
    for _, value in items:
        if value is not None and value.__class__ is not str:
            return Encoded(_dumps(decision))
    cached = _DECISIONS_JSON.get(items)
    if cached is None:
        cached = Encoded(_dumps(decision))
        if len(_DECISIONS_JSON) >= _DECISIONS_KEPT:
            _DECISIONS_JSON.clear()
        _DECISIONS_JSON[items] = cached
    return cached


# Session ids seen valid: checked once each, not on every call.
_SESSION_IDS: set[str] = set()
_SESSION_IDS_KEPT = 4096


def _valid_session(session_id: object) -> bool:
    if not isinstance(session_id, str):
        return False
    if session_id in _SESSION_IDS:
        return True
    try:
        uuid.UUID(session_id)
    except (ValueError, TypeError, AttributeError):
        return False
    if len(_SESSION_IDS) >= _SESSION_IDS_KEPT:
        _SESSION_IDS.clear()
    _SESSION_IDS.add(session_id)
    return True


def _capped(text: str, cap: int) -> tuple[Encoded, int, bool]:
    """The JSON to store, the original size in bytes, and whether it was truncated.

    Over the cap, what is stored is a JSON string holding the first `cap` bytes of the JSON text.
    """
    size = len(text) if text.isascii() else len(text.encode("utf-8"))
    if size <= cap:
        return Encoded(text), size, False
    prefix = text.encode("utf-8")[:cap].decode("utf-8", "ignore")
    return Encoded(json.dumps(prefix, ensure_ascii=False)), size, True


def call_row(rec: CallRecord, cap: int, *, safe: bool = False, exact_tokens: bool = False) -> dict[str, Any]:
    """The `tool_calls` row of a record: text cleaned, JSON encoded and capped at `cap` bytes, tokens counted.

    With `safe`, the JSON columns hold a note instead (a row the database refused as it was).
    """
    arguments_json = None
    if rec.arguments is not None:
        arguments_json = rec.arguments_json if rec.arguments_json is not None else _dumps(rec.arguments)
    input_count = count_tokens(arguments_json or "", exact=exact_tokens)
    output_count = count_tokens(output_text(rec.response, rec.error), exact=exact_tokens)
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
        "started_at": as_utc(rec.started_at),
        "duration_ms": float(rec.duration_ms),
        "request_id": _clean(rec.request_id),
        "client_name": _clean(rec.client_name),
        "client_version": _clean(rec.client_version),
        "user_name": _clean(rec.user),
        "config_path": _clean(rec.config_path),
        "user_key": _clean(rec.user_key),
        "parent_call_id": _clean(rec.parent_call_id),
        "execution_type": _clean(rec.execution_type) or "direct",
        "hints": None if rec.hints is None else _hints_json(rec.hints),
        "tier": _clean(rec.tier),
        "decision": None if rec.decision is None else _decision_json(rec.decision),
        "verdict": _clean(rec.verdict),
        "input_tokens": input_count.tokens,
        "output_tokens": output_count.tokens,
        "tokens_estimated": input_count.estimated or output_count.estimated,
    }
    if arguments_json is not None:
        row["arguments"], row["arguments_size"], row["arguments_truncated"] = _capped(arguments_json, cap)
    if rec.response is not None:
        response_json = rec.response_json if rec.response_json is not None else _dumps(rec.response)
        row["response"], row["response_size"], row["response_truncated"] = _capped(response_json, cap)
    if safe:
        note = Encoded(json.dumps({"unstorable": "the database refused this value; see the gateway's log"}))
        for column in ("arguments", "response", "hints", "decision"):
            if row[column] is not None:
                row[column] = note
    return row


def completion_values(
    response: Mapping[str, Any] | None,
    error: str | None,
    duration_ms: float,
    decision: Mapping[str, Any] | None,
    cap: int,
) -> dict[str, Any]:
    """The columns of a `tool_calls` row that change when a call recorded at its start ends (a task's)."""
    output = count_tokens(output_text(response, error), exact=False)
    values: dict[str, Any] = {
        "response": None,
        "response_truncated": False,
        "response_size": None,
        "response_cap": cap,
        "error": _clean(error),
        "duration_ms": float(duration_ms),
        "decision": None if decision is None else Encoded(_dumps(decision)),
        "output_tokens": output.tokens,
        "tokens_estimated": output.estimated,
    }
    if response is not None:
        values["response"], values["response_size"], values["response_truncated"] = _capped(_dumps(response), cap)
    return values


def prepare(
    items: Sequence[Item], *, response_cap: int, replica: str, safe: bool = False, exact_tokens: bool = False
) -> Batch:
    """Turn queued items into rows: encode, cap, count tokens. CPU work, run in a worker thread.

    With `exact_tokens`, tokens are counted with o200k's tables (loaded here, on first use), else estimated.
    """
    batch = Batch()
    started: dict[str, dict[str, Any]] = {}
    stubs: dict[str, dict[str, Any]] = {}
    counts: dict[str, list[int]] = {}
    for kind, payload, _ in items:
        if kind == CALL:
            row = call_row(payload, response_cap, safe=safe, exact_tokens=exact_tokens)
            session_id = row["session_id"]
            if session_id is not None and not _valid_session(session_id):
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
        elif kind == START:
            rec: SessionRecord = payload
            started[rec.id] = {
                "id": rec.id,
                "client_name": _clean(rec.client_name),
                "client_version": _clean(rec.client_version),
                "user_name": _clean(rec.user),
                "user_key": _clean(rec.user_key),
                "started_at": as_utc(rec.started_at),
                "transport": _clean(rec.transport),
                "replica": _clean(rec.replica),
                "view": _clean(rec.view),
            }
        else:
            session_id, ended_at = payload
            batch.closes.append({"sid": session_id, "ended": as_utc(ended_at)})
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


@functools.cache
def _upserts(dialect: str) -> tuple[UpdateBase, UpdateBase]:
    """The session upsert and the stub insert, in `dialect`'s form (built once per dialect)."""
    started = upsert(sessions, dialect)
    started = started.on_conflict_do_update(
        index_elements=[sessions.c.id],
        set_={
            c: started.excluded[c]
            for c in (
                "client_name",
                "client_version",
                "user_name",
                "user_key",
                "started_at",
                "transport",
                "replica",
                "view",
            )
        },
    )
    return started, upsert(sessions, dialect).on_conflict_do_nothing(index_elements=[sessions.c.id])


_INSERT_CALLS = tool_calls.insert()


def statements(batch: Batch, dialect: str) -> list[tuple[str, UpdateBase, list[dict[str, Any]]]]:
    """The statements that write `batch`, in order, each with its name and its rows (none without rows).

    Sessions started come first, then sessions known only from their calls, the calls,
    the sessions' counters, and the sessions closed.
    """
    started, stub = _upserts("postgresql" if dialect == "postgresql" else "sqlite")
    planned = (
        ("sessions", started, batch.sessions),
        ("stubs", stub, batch.stubs),
        ("calls", _INSERT_CALLS, batch.calls),
        ("increments", _INCREMENT, batch.increments),
        ("closes", _CLOSE_SESSION, batch.closes),
    )
    return [entry for entry in planned if entry[2]]


async def write(conn: AsyncConnection, batch: Batch) -> None:
    """Write a prepared batch on `conn`, inside the caller's transaction."""
    for _, statement, rows in statements(batch, conn.dialect.name):
        await conn.execute(statement, rows)
