"""Tool pins (the accepted and the last seen definition of every tool), their history, and the `pins` counter.

Revision ID: 0004
Revises: 0002
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, drop_index, moment, required_string

revision: str = "0004"
down_revision: str | None = "0002"


def upgrade() -> None:
    op.create_table(
        "tool_pins",
        required_string("server"),
        required_string("tool"),
        required_string("name"),
        required_string("sha256", length=64),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.Column("accepted_sha256", sa.String(length=64), nullable=True),
        sa.Column("accepted_definition", sa.Text(), nullable=True),
        required_string("state", length=16),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("reviewed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("first_seen_at", moment(), nullable=False),
        sa.Column("last_seen_at", moment(), nullable=False),
        sa.Column("accepted_at", moment(), nullable=True),
        sa.Column("accepted_by", sa.String(), nullable=True),
        sa.CheckConstraint("state IN ('accepted', 'quarantined', 'removed')", name=op.f("ck_tool_pins_state")),
        sa.PrimaryKeyConstraint("server", "tool", name=op.f("pk_tool_pins")),
    )
    create_index("tool_pins", "state")
    op.create_table(
        "pin_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        required_string("server"),
        required_string("tool"),
        required_string("kind", length=16),
        required_string("sha256", length=64),
        sa.Column("at", moment(), nullable=False),
        required_string("actor"),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pin_events")),
    )
    create_index("pin_events", "server", "tool", "id")
    counters = sa.table("counters", sa.column("name", sa.String()), sa.column("value", sa.BigInteger()))
    op.bulk_insert(counters, [{"name": "pins", "value": 0}])


def downgrade() -> None:
    op.execute("DELETE FROM counters WHERE name = 'pins'")
    drop_index("pin_events", "server", "tool", "id")
    op.drop_table("pin_events")
    drop_index("tool_pins", "state")
    op.drop_table("tool_pins")
