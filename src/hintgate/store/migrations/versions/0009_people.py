"""Who opened each session and made each call: a person from the identity provider, or the API token.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, drop_columns, drop_index

revision: str = "0009"
down_revision: str | None = "0008"


def upgrade() -> None:
    # A plain ADD COLUMN on both backends: never a rebuild of sessions, which tool_calls cascade from.
    for table in ("sessions", "tool_calls"):
        op.add_column(table, sa.Column("user_name", sa.String(), nullable=True))
        create_index(table, "user_name", "started_at")


def downgrade() -> None:
    for table in ("sessions", "tool_calls"):
        drop_index(table, "user_name", "started_at")
        drop_columns(table, "user_name")
