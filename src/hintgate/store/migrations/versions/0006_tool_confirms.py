"""Operators' confirm settings (first, always, never) by tool name or glob.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import required_string, stamp

revision: str = "0006"
down_revision: str | None = "0005"


def upgrade() -> None:
    op.create_table(
        "tool_confirms",
        required_string("tool"),
        required_string("confirm", length=16),
        *stamp("updated"),
        sa.CheckConstraint("confirm IN ('first', 'always', 'never')", name=op.f("ck_tool_confirms_confirm")),
        sa.PrimaryKeyConstraint("tool", name=op.f("pk_tool_confirms")),
    )


def downgrade() -> None:
    op.drop_table("tool_confirms")
