"""Operators' title overrides, by public tool name.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "title_overrides",
        sa.Column("tool", sa.String(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("tool", name=op.f("pk_title_overrides")),
    )


def downgrade() -> None:
    op.drop_table("title_overrides")
