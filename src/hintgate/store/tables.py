"""The store's schema as SQLAlchemy Core tables: sessions, tool calls, hint overrides, tool pins.

The Alembic migrations under `migrations/versions` must build exactly this; a
test compares the two. The records' validation rules are CHECK constraints, so
they hold whatever writes to the database.

Times are stored in UTC. SQLite has no time-zone type, so `UTCDateTime`
writes UTC and reads back aware UTC datetimes on every backend. JSON columns
are JSON on SQLite and JSONB on PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    TypeDecorator,
    false,
)

if TYPE_CHECKING:
    from sqlalchemy.dialects.postgresql import Insert as PostgresInsert
    from sqlalchemy.dialects.sqlite import Insert as SQLiteInsert
    from sqlalchemy.types import TypeEngine

__all__ = [
    "APPROVAL_STATES",
    "HINT_NAMES",
    "PIN_STATES",
    "TASK_STATUSES",
    "JSONColumn",
    "UTCDateTime",
    "approvals",
    "as_utc",
    "counters",
    "hint_overrides",
    "login_waits",
    "metadata",
    "oauth_credentials",
    "person_credentials",
    "person_preferences",
    "pin_events",
    "policy_settings",
    "scan_verdicts",
    "server_changes",
    "sessions",
    "tasks",
    "title_overrides",
    "tool_calls",
    "tool_confirms",
    "tool_pins",
    "upsert",
    "used_nonces",
]

HINT_NAMES = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""The wire names of the four hints (`hintgate.hints.annotations.Hint`), the only ones an override may set."""


def as_utc(moment: datetime) -> datetime:
    """`moment` as the store keeps times: aware, in UTC (a naive one is taken as UTC)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back as an aware UTC datetime (a naive one is taken as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else as_utc(value)


class JSONColumn(TypeDecorator[Any]):
    """A JSON column (JSONB on PostgreSQL) where Python `None` is SQL NULL.

    PostgreSQL's type is looked up when a PostgreSQL engine first uses the
    column, so a gateway recording to SQLite never loads that dialect.
    """

    impl = JSON(none_as_null=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            return dialect.type_descriptor(JSONB(none_as_null=True))
        return dialect.type_descriptor(JSON(none_as_null=True))


def upsert(table: Table, dialect: str) -> PostgresInsert | SQLiteInsert:
    """An INSERT into `table` that can say ON CONFLICT, in `dialect`'s (a `Dialect.name`) own form.

    Each dialect's module is loaded on first use: a gateway on SQLite never loads PostgreSQL's.
    """
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgres_insert

        return postgres_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)


# Constraint names are fixed so that migrations can refer to them on every backend.
metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

sessions = Table(
    "sessions",
    metadata,
    Column("id", String(36), primary_key=True),  # a UUID
    Column("client_name", String),  # from the client's initialize
    Column("client_version", String),
    Column("user_name", String),  # the person who opened it (identity provider), or api-token; NULL: no users
    Column("user_key", String),  # who that is (issuer#sub, api-token); NULL: no users, or recorded before keys
    Column("status", String(16), nullable=False, server_default="active"),
    Column("started_at", UTCDateTime, nullable=False),
    Column("ended_at", UTCDateTime),  # set exactly when status is closed
    Column("tool_call_count", BigInteger, nullable=False, server_default="0"),
    Column("total_tokens", BigInteger, nullable=False, server_default="0"),
    Column("transport", String(16)),  # stdio or http; NULL for a session only known from its calls
    Column("replica", String, nullable=False),  # the gateway instance that served it
    Column("view", String),  # the view it was served (/mcp/NAME, serve --view); NULL: the whole catalog
    CheckConstraint("status IN ('active', 'closed')", name="status"),
    CheckConstraint(
        "(status = 'active' AND ended_at IS NULL) OR (status = 'closed' AND ended_at IS NOT NULL)",
        name="ended_iff_closed",
    ),
    CheckConstraint("tool_call_count >= 0", name="tool_call_count"),
    CheckConstraint("total_tokens >= 0", name="total_tokens"),
    Index(None, "started_at"),
    Index(None, "replica", "status"),
    Index(None, "user_name", "started_at"),
    Index(None, "user_key", "started_at"),
)

tool_calls = Table(
    "tool_calls",
    metadata,
    Column("id", String, primary_key=True),
    Column("session_id", String(36), ForeignKey("sessions.id", ondelete="CASCADE")),
    Column("server_id", String, nullable=False),
    Column("server_name", String),
    Column("tool_name", String, nullable=False),  # the name the gateway lists
    Column("upstream_tool", String, nullable=False),  # the name the server lists
    Column("arguments", JSONColumn()),
    Column("arguments_truncated", Boolean, nullable=False, server_default=false()),
    Column("arguments_size", Integer),  # bytes of the arguments' JSON
    Column("response", JSONColumn()),  # when truncated, a JSON string: the first response_cap bytes
    Column("response_truncated", Boolean, nullable=False, server_default=false()),
    Column("response_size", Integer),  # bytes of the response's JSON before any truncation
    Column("response_cap", Integer),  # the cap in force when recorded
    Column("error", Text),
    Column("started_at", UTCDateTime, nullable=False),
    Column("duration_ms", Float, nullable=False),
    Column("request_id", String),
    Column("client_name", String),
    Column("client_version", String),
    Column("user_name", String),  # the person who made the call, or api-token; NULL when the gateway knows no users
    Column("config_path", String),  # the config file of the gateway that served it; NULL when it had none
    Column("user_key", String),  # who that is (issuer#sub, api-token); NULL: no users, or recorded before keys
    Column("parent_call_id", String),
    Column("execution_type", String(32), nullable=False, server_default="direct"),
    Column("hints", JSONColumn()),  # annotations, provenance and tier in force at call time
    Column("tier", String(32)),
    Column("decision", JSONColumn()),  # the policy decision
    Column("verdict", String(16)),
    Column("input_tokens", Integer, nullable=False, server_default="0"),
    Column("output_tokens", Integer, nullable=False, server_default="0"),
    Column("tokens_estimated", Boolean, nullable=False, server_default=false()),
    CheckConstraint("input_tokens >= 0", name="input_tokens"),
    CheckConstraint("output_tokens >= 0", name="output_tokens"),
    Index(None, "session_id", "started_at"),
    Index(None, "server_id", "started_at"),
    Index(None, "tool_name", "started_at"),
    Index(None, "tier", "started_at"),
    Index(None, "verdict", "started_at"),
    Index(None, "user_name", "started_at"),
    Index(None, "user_key", "started_at"),
    Index(None, "started_at"),
)

hint_overrides = Table(
    "hint_overrides",
    metadata,
    Column("tool", String, primary_key=True),  # the tool's name as the gateway lists it
    Column("hint", String(32), primary_key=True),
    Column("value", Boolean, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", String, nullable=False),
    CheckConstraint(f"hint IN ({', '.join(repr(h) for h in HINT_NAMES)})", name="hint"),
)

title_overrides = Table(
    "title_overrides",
    metadata,
    Column("tool", String, primary_key=True),  # the tool's name as the gateway lists it
    Column("title", Text, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", String, nullable=False),
)
"""Operators' titles by public tool name; they win over the config file's `title`."""

server_changes = Table(
    "server_changes",
    metadata,
    Column("name", String, primary_key=True),  # the server's name, as in the config file
    Column("action", String(16), nullable=False),
    Column("config", JSONColumn()),  # the server's mcpServers entry, when the change defines it
    Column("changed_at", UTCDateTime, nullable=False),
    Column("changed_by", String, nullable=False),
    CheckConstraint("action IN ('add', 'edit', 'remove', 'enable', 'disable')", name="action"),
)
"""Servers changed while the gateway runs, one change per server, laid over the config file
(`hintgate.config.layering`)."""

tool_confirms = Table(
    "tool_confirms",
    metadata,
    Column("tool", String, primary_key=True),  # a public tool name, or a glob over them
    Column("confirm", String(16), nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", String, nullable=False),
    CheckConstraint("confirm IN ('first', 'always', 'never')", name="confirm"),
)
"""Operators' `confirm` settings by tool name or glob, set through the API or dashboard (tool rules of their own)."""

policy_settings = Table(
    "policy_settings",
    metadata,
    Column("setting", String, primary_key=True),  # its key path under `policy`: mode, preferences.showHintWarnings
    Column("value", JSONColumn(), nullable=False),  # as the REST API and the config file write it
    Column("updated_at", UTCDateTime, nullable=False),
    Column("updated_by", String, nullable=False),
)
"""Policy settings (mode, preferences...) changed through the API, dashboard or CLI, laid over the config
file's `policy` section; a setting without a row follows the file."""

person_preferences = Table(
    "person_preferences",
    metadata,
    Column("person", String, primary_key=True),  # who keeps it: hintgate.policy.preferences.owner_key
    Column("setting", String, primary_key=True),  # its key path under `policy`: preferences.alwaysConfirmDestructive
    Column("value", JSONColumn(), nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)
"""A person's own preferences (`hintgate.policy.preferences`), laid over the policy for their calls only, and
only where they ask more."""

counters = Table(
    "counters",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("value", BigInteger, nullable=False, server_default="0"),
)
"""Named monotonic counters: `overrides` bumps on every change of `hint_overrides`, `title_overrides`,
`tool_confirms`, `policy_settings` or `person_preferences`, `pins` on every change of `tool_pins`."""

COUNTER_NAMES = ("overrides", "pins")
"""The rows of `counters`, each starting at 0 (the migrations that added them seed them too)."""

PIN_STATES = ("accepted", "quarantined", "removed")
"""A pin's states (`hintgate.hints.pins.PinState`)."""

tool_pins = Table(
    "tool_pins",
    metadata,
    Column("server", String, primary_key=True),  # the source's name
    Column("tool", String, primary_key=True),  # the tool's name at the source
    Column("name", String, nullable=False),  # the name the gateway lists it under, when last seen
    Column("sha256", String(64), nullable=False),  # of the canonical form last seen
    Column("definition", Text, nullable=False),  # the canonical form last seen
    Column("accepted_sha256", String(64)),  # NULL: never accepted
    Column("accepted_definition", Text),
    Column("state", String(16), nullable=False),
    Column("reason", Text),
    Column("reviewed", Boolean, nullable=False, server_default=false()),
    Column("first_seen_at", UTCDateTime, nullable=False),
    Column("last_seen_at", UTCDateTime, nullable=False),
    Column("accepted_at", UTCDateTime),
    Column("accepted_by", String),
    Column("launch", String(64)),  # how the config started the server when last seen (`ServerConfig.launch`)
    CheckConstraint(f"state IN ({', '.join(repr(s) for s in PIN_STATES)})", name="state"),
    Index(None, "state"),
)
"""Every tool's pin: the definition accepted and the one last seen (`hintgate.hints.pins`)."""

pin_events = Table(
    "pin_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("server", String, nullable=False),
    Column("tool", String, nullable=False),
    Column("kind", String(16), nullable=False),  # hintgate.hints.pins.ChangeKind
    Column("sha256", String(64), nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("actor", String, nullable=False),
    Column("detail", Text, nullable=False),
    # The same event again (a server flipping between two definitions) counts here instead of a new line.
    Column("repeats", Integer, nullable=False, server_default="1"),
    Column("last_at", UTCDateTime),
    Index(None, "server", "tool", "id"),
)
"""Each pin's history: first sight, changes (accepted or quarantined), acceptances, removals."""

scan_verdicts = Table(
    "scan_verdicts",
    metadata,
    Column("key", String(64), primary_key=True),  # the SHA-256 of the definition's JSON as listed
    Column("rules", String(64), nullable=False),  # the version of the scan's rules that made it
    Column("verdict", Text, nullable=False),  # its findings and the words that could name another server's tool
    Column("scanned_at", UTCDateTime, nullable=False),
)
"""The poisoning scan of each tool definition listed, written by the gateway that scanned it and read by the next
start under the same rules (`hintgate.scan.verdicts`)."""

oauth_credentials = Table(
    "oauth_credentials",
    metadata,
    Column("server", String, primary_key=True),  # the server's name in the config
    Column("sealed", LargeBinary, nullable=False),  # tokens and client registration, encrypted (AES-GCM)
    Column("updated_at", UTCDateTime, nullable=False),
)
"""What hintgate holds to log in to a server behind OAuth: only ever stored encrypted (`store.oauth_tokens`)."""

person_credentials = Table(
    "person_credentials",
    metadata,
    Column("server", String, primary_key=True),  # the server's name in the config (`oauth.perUser`)
    Column("person", String, primary_key=True),  # who the person is: their key (issuer#sub), never a name
    Column("name", String),  # how they were named when they last logged in, for listings
    Column("sealed", LargeBinary, nullable=False),  # their tokens and client registration, encrypted (AES-GCM)
    Column("updated_at", UTCDateTime, nullable=False),
)
"""One person's login to a server that logs in per person: only ever stored encrypted (`store.oauth_tokens`)."""
"""Named monotonic counters: `overrides` bumps on every change of `hint_overrides` or `title_overrides`."""

APPROVAL_STATES = ("pending", "approved", "denied", "expired", "withdrawn")
"""Where an approval is: waiting, or how it left the queue (the four others are final)."""

approvals = Table(
    "approvals",
    metadata,
    Column("id", String(36), primary_key=True),  # a UUID
    Column("call_id", String),  # the tool call's id, as recorded in tool_calls once it ends
    Column("session_id", String(36)),  # no foreign key: sessions are pruned on their own schedule
    Column("client_name", String),
    Column("user_name", String),  # the person whose call waits; NULL when the gateway knows no users
    Column("view", String),  # the view its session was served; NULL: the whole catalog
    Column("user_key", String),  # who that is (issuer#sub): never an approver of their own call, unless allowed
    Column("approvers", JSONColumn()),  # who may answer: {"users", "groups", "self"}; NULL: anyone
    Column("tool", String, nullable=False),  # the public tool name
    Column("title", Text),
    Column("title_origin", String(16)),
    Column("server", String, nullable=False),
    Column("arguments", JSONColumn()),
    Column("hints", JSONColumn()),  # annotations, provenance and tier when it was asked
    Column("warnings", JSONColumn()),
    Column("reason", Text, nullable=False),  # why hintgate asks
    Column("asked_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("replica", String, nullable=False),  # the gateway instance holding the waiting call
    Column("state", String(16), nullable=False, server_default="pending"),
    Column("answer", String(16)),  # approve-once, approve-session or deny, when a person answered
    Column("answered_by", String),  # who: a user name, "api", "dashboard", "client", "hintgate"
    Column("answered_via", String(16)),  # how: dashboard, api, cli, elicitation, timeout, caller, restart
    Column("answered_at", UTCDateTime),  # set exactly when it left pending
    Column("end_reason", Text),  # what moved it out of pending, in words
    CheckConstraint(f"state IN ({', '.join(repr(s) for s in APPROVAL_STATES)})", name="state"),
    CheckConstraint("answer IS NULL OR answer IN ('approve-once', 'approve-session', 'deny')", name="answer"),
    CheckConstraint(
        "(state = 'pending' AND answered_at IS NULL) OR (state <> 'pending' AND answered_at IS NOT NULL)",
        name="answered_iff_settled",
    ),
    Index(None, "state", "expires_at"),
    Index(None, "replica", "state"),
    Index(None, "answered_at"),
)
"""Calls waiting for a person, shared by every replica; answering is one `UPDATE ... WHERE state = 'pending'`."""

login_waits = Table(
    "login_waits",
    metadata,
    Column("state", String, primary_key=True),  # the authorization request's state, which the redirect echoes
    Column("server", String, nullable=False),  # the server logged in to (`oauth.perUser`)
    Column("person", String, nullable=False),  # who logs in (their key): only they may finish it
    Column("browser", String(64), nullable=False),  # SHA-256 of the nonce in the starting browser's cookie
    Column("replica", String, nullable=False),  # the gateway instance whose login waits for the redirect
    Column("started_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("answer", JSONColumn()),  # the redirect's code, state and iss (or error), once it came; taken once
    Column("outcome", String(16)),  # done or failed, once the replica holding it traded the code
    Column("detail", Text),  # why it failed
    CheckConstraint("outcome IS NULL OR outcome IN ('done', 'failed')", name="outcome"),
    Index(None, "expires_at"),
)
"""People's logins to servers that log in per person, waiting for their browser to come back: the redirect
may reach any replica, which hands it to the one holding the login (`hintgate.store.login_waits`)."""

TASK_STATUSES = ("working", "ending", "completed", "failed", "cancelled", "withdrawn")
"""What a kept task may be (`hintgate.handles`)."""

tasks = Table(
    "tasks",
    metadata,
    Column("key", String(64), primary_key=True),  # the SHA-256 of the handle its client holds, never the handle
    Column("call_id", String, nullable=False),  # the call's record in tool_calls, written when the handle went out
    Column("owner", Text, nullable=False),  # who may use the handle: person, client name and version, view (JSON)
    Column("session_id", String(36)),  # no foreign key: sessions are pruned on their own schedule
    Column("server", String, nullable=False),
    Column("tool", String, nullable=False),
    Column("upstream_id", Text, nullable=False),  # the server's own id of the task
    Column("replica", String, nullable=False),  # the gateway instance that started it
    Column("status", String(16), nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("touched_at", UTCDateTime, nullable=False),  # its client's last request about it, on any replica
    Column("expires_at", UTCDateTime, nullable=False),
    Column("result", JSONColumn()),  # the tool's result as its client gets it, until served and dropped
    Column("answer", JSONColumn()),  # the server's terminal answer without the result (a failed task's error)
    Column("served_at", UTCDateTime),
    Column("cancel_due", Boolean, nullable=False, server_default=false()),  # withdrawn at start, to cancel upstream
    CheckConstraint(f"status IN ({', '.join(repr(s) for s in TASK_STATUSES)})", name="status"),
    Index(None, "owner", "status"),
    Index(None, "status", "expires_at"),
    Index(None, "replica", "status"),
)
"""Tasks clients hold handles of, shared by every replica; each change of status is one conditional `UPDATE`."""
used_nonces = Table(
    "used_nonces",
    metadata,
    Column("nonce", String, primary_key=True),  # of an approval question's answer, or of a carried approval
    Column("deadline", Float, nullable=False),  # Unix time after which the answer is refused as late anyway
    Index(None, "deadline"),
)
"""Answers to 2026-07-28 approval questions already used, shared by every replica (`hintgate.store.used_nonces`)."""
