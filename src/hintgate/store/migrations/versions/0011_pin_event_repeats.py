"""A pin event seen again is counted on its line instead of written anew: `repeats` and `last_at`.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import drop_columns, moment

revision: str = "0011"
down_revision: str | None = "0010"


def upgrade() -> None:
    # Plain ADD COLUMNs on both backends: the history already written stays as it is (one each).
    op.add_column("pin_events", sa.Column("repeats", sa.Integer(), nullable=False, server_default="1"))
    op.add_column("pin_events", sa.Column("last_at", moment(), nullable=True))


def downgrade() -> None:
    drop_columns("pin_events", "last_at", "repeats")
