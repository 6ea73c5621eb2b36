"""Tasks clients hold handles of, kept in the store so that any replica answers them and none is lost.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, drop_index, json_value, moment, required_string

revision: str = "0017"
down_revision: str | None = "0016"


def upgrade() -> None:
    op.create_table(
        "tasks",
        required_string("key", length=64),
        required_string("call_id"),
        sa.Column("owner", sa.Text(), nullable=False),
        sa.Column("session_id", sa.String(36), nullable=True),
        required_string("server"),
        required_string("tool"),
        sa.Column("upstream_id", sa.Text(), nullable=False),
        required_string("replica"),
        required_string("status", length=16),
        sa.Column("started_at", moment(), nullable=False),
        sa.Column("touched_at", moment(), nullable=False),
        sa.Column("expires_at", moment(), nullable=False),
        sa.Column("result", json_value(), nullable=True),
        sa.Column("answer", json_value(), nullable=True),
        sa.Column("served_at", moment(), nullable=True),
        sa.Column("cancel_due", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.CheckConstraint(
            "status IN ('working', 'ending', 'completed', 'failed', 'cancelled', 'withdrawn')",
            name=op.f("ck_tasks_status"),
        ),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_tasks")),
    )
    create_index("tasks", "owner", "status")
    create_index("tasks", "status", "expires_at")
    create_index("tasks", "replica", "status")


def downgrade() -> None:
    drop_index("tasks", "replica", "status")
    drop_index("tasks", "status", "expires_at")
    drop_index("tasks", "owner", "status")
    op.drop_table("tasks")
