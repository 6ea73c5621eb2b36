"""The view each session was served (`/mcp/NAME`, `serve --view NAME`), and the view of each waiting call.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa

from hintgate.store.migrations.columns import NullColumn, add_null_columns, drop_null_columns

revision: str = "0014"
down_revision: str | None = "0013"

# Earlier sessions and approvals keep NULL, which is what a session of the whole catalog records too.
ADDED: list[NullColumn] = [("sessions", "view", sa.String()), ("approvals", "view", sa.String())]


def upgrade() -> None:
    add_null_columns(ADDED)


def downgrade() -> None:
    drop_null_columns(ADDED)
