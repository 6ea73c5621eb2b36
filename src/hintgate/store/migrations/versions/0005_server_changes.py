"""Servers added, edited, removed, enabled or disabled while the gateway runs.

Revision ID: 0005
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def _json() -> sa.JSON:
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "server_changes",
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("config", _json(), nullable=True),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_by", sa.String(), nullable=False),
        sa.CheckConstraint(
            "action IN ('add', 'edit', 'remove', 'enable', 'disable')", name=op.f("ck_server_changes_action")
        ),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_server_changes")),
    )


def downgrade() -> None:
    op.drop_table("server_changes")
