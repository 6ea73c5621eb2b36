"""Whose call an approval is for, and who may answer it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import json_value

revision: str = "0010"
down_revision: str | None = "0009"


def upgrade() -> None:
    op.add_column("approvals", sa.Column("user_name", sa.String(), nullable=True))
    op.add_column("approvals", sa.Column("approvers", json_value(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("approvals") as batch:
        batch.drop_column("approvers")
        batch.drop_column("user_name")
