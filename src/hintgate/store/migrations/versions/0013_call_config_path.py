"""The config file of the gateway that served each call.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa

from hintgate.store.migrations.columns import NullColumn, add_null_columns, drop_null_columns

revision: str = "0013"
down_revision: str | None = "0012"

ADDED: list[NullColumn] = [("tool_calls", "config_path", sa.String())]  # the calls recorded before keep NULL


def upgrade() -> None:
    add_null_columns(ADDED)


def downgrade() -> None:
    drop_null_columns(ADDED)
