"""The initial schema: sessions, tool calls, hint overrides, counters.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, json_value, moment, required_string, stamp

revision: str = "0001"
down_revision: str | None = None


def upgrade() -> None:
    counters = op.create_table(
        "counters",
        required_string("name", length=64),
        sa.Column("value", sa.BigInteger(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_counters")),
    )
    op.bulk_insert(counters, [{"name": "overrides", "value": 0}])
    op.create_table(
        "hint_overrides",
        required_string("tool"),
        required_string("hint", length=32),
        sa.Column("value", sa.Boolean(), nullable=False),
        *stamp("updated"),
        sa.CheckConstraint(
            "hint IN ('readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint')",
            name=op.f("ck_hint_overrides_hint"),
        ),
        sa.PrimaryKeyConstraint("tool", "hint", name=op.f("pk_hint_overrides")),
    )
    op.create_table(
        "sessions",
        required_string("id", length=36),
        sa.Column("client_name", sa.String(), nullable=True),
        sa.Column("client_version", sa.String(), nullable=True),
        sa.Column("status", sa.String(length=16), server_default="active", nullable=False),
        sa.Column("started_at", moment(), nullable=False),
        sa.Column("ended_at", moment(), nullable=True),
        sa.Column("tool_call_count", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("total_tokens", sa.BigInteger(), server_default="0", nullable=False),
        sa.Column("transport", sa.String(length=16), nullable=True),
        required_string("replica"),
        sa.CheckConstraint(
            "(status = 'active' AND ended_at IS NULL) OR (status = 'closed' AND ended_at IS NOT NULL)",
            name=op.f("ck_sessions_ended_iff_closed"),
        ),
        sa.CheckConstraint("status IN ('active', 'closed')", name=op.f("ck_sessions_status")),
        sa.CheckConstraint("tool_call_count >= 0", name=op.f("ck_sessions_tool_call_count")),
        sa.CheckConstraint("total_tokens >= 0", name=op.f("ck_sessions_total_tokens")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sessions")),
    )
    create_index("sessions", "replica", "status")
    create_index("sessions", "started_at")
    op.create_table(
        "tool_calls",
        required_string("id"),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        required_string("server_id"),
        sa.Column("server_name", sa.String(), nullable=True),
        required_string("tool_name"),
        required_string("upstream_tool"),
        sa.Column("arguments", json_value(), nullable=True),
        sa.Column("arguments_truncated", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("arguments_size", sa.Integer(), nullable=True),
        sa.Column("response", json_value(), nullable=True),
        sa.Column("response_truncated", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("response_size", sa.Integer(), nullable=True),
        sa.Column("response_cap", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("started_at", moment(), nullable=False),
        sa.Column("duration_ms", sa.Float(), nullable=False),
        sa.Column("request_id", sa.String(), nullable=True),
        sa.Column("client_name", sa.String(), nullable=True),
        sa.Column("client_version", sa.String(), nullable=True),
        sa.Column("parent_call_id", sa.String(), nullable=True),
        sa.Column("execution_type", sa.String(length=32), server_default="direct", nullable=False),
        sa.Column("hints", json_value(), nullable=True),
        sa.Column("tier", sa.String(length=32), nullable=True),
        sa.Column("decision", json_value(), nullable=True),
        sa.Column("verdict", sa.String(length=16), nullable=True),
        sa.Column("input_tokens", sa.Integer(), server_default="0", nullable=False),
        sa.Column("output_tokens", sa.Integer(), server_default="0", nullable=False),
        sa.Column("tokens_estimated", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.CheckConstraint("input_tokens >= 0", name=op.f("ck_tool_calls_input_tokens")),
        sa.CheckConstraint("output_tokens >= 0", name=op.f("ck_tool_calls_output_tokens")),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name=op.f("fk_tool_calls_session_id_sessions"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tool_calls")),
    )
    for columns in (
        ["session_id", "started_at"],
        ["server_id", "started_at"],
        ["tool_name", "started_at"],
        ["tier", "started_at"],
        ["verdict", "started_at"],
        ["started_at"],
    ):
        create_index("tool_calls", *columns)


def downgrade() -> None:
    op.drop_table("tool_calls")
    op.drop_table("sessions")
    op.drop_table("hint_overrides")
    op.drop_table("counters")
