"""Operators' title overrides, by public tool name.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import required_string, stamp

revision: str = "0002"
down_revision: str | None = "0001"


def upgrade() -> None:
    op.create_table(
        "title_overrides",
        required_string("tool"),
        sa.Column("title", sa.Text(), nullable=False),
        *stamp("updated"),
        sa.PrimaryKeyConstraint("tool", name=op.f("pk_title_overrides")),
    )


def downgrade() -> None:
    op.drop_table("title_overrides")
