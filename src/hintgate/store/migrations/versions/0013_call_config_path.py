"""The config file of the gateway that served each call.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"


def upgrade() -> None:
    # A plain ADD COLUMN on both backends (nullable, no default): the calls recorded before keep NULL.
    op.add_column("tool_calls", sa.Column("config_path", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tool_calls") as batch:
        batch.drop_column("config_path")
