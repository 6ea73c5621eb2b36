"""Servers added, edited, removed, enabled or disabled while the gateway runs.

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import json_value, required_string, stamp

revision: str = "0005"
down_revision: str | None = "0003"


def upgrade() -> None:
    op.create_table(
        "server_changes",
        required_string("name"),
        required_string("action", length=16),
        sa.Column("config", json_value(), nullable=True),
        *stamp("changed"),
        sa.CheckConstraint(
            "action IN ('add', 'edit', 'remove', 'enable', 'disable')", name=op.f("ck_server_changes_action")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_changes")),
    )


def downgrade() -> None:
    op.drop_table("server_changes")
