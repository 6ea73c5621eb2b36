"""Whose call an approval is for, and who may answer it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa

from hintgate.store.migrations.columns import NullColumn, add_null_columns, drop_null_columns, json_value

revision: str = "0010"
down_revision: str | None = "0009"

ADDED: list[NullColumn] = [("approvals", "user_name", sa.String()), ("approvals", "approvers", json_value())]


def upgrade() -> None:
    add_null_columns(ADDED)


def downgrade() -> None:
    drop_null_columns(ADDED)
