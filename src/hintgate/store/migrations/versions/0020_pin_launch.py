"""Tool pins keep how the config started their server, so a command line the operator changed is theirs.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa

from hintgate.store.migrations.columns import NullColumn, add_null_columns, drop_null_columns

revision: str = "0020"
down_revision: str | None = "0019"


ADDED: list[NullColumn] = [("tool_pins", "launch", sa.String(length=64))]


def upgrade() -> None:
    add_null_columns(ADDED)


def downgrade() -> None:
    drop_null_columns(ADDED)
