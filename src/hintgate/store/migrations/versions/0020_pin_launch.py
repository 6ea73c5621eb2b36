"""Tool pins keep how the config started their server, so a command line the operator changed is theirs.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"


def upgrade() -> None:
    op.add_column("tool_pins", sa.Column("launch", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tool_pins") as batch:
        batch.drop_column("launch")
