"""Answers to 2026-07-28 approval questions already used, shared by every replica.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, drop_index, required_string

revision: str = "0019"
down_revision: str | None = "0018"


def upgrade() -> None:
    op.create_table(
        "used_nonces",
        required_string("nonce"),
        sa.Column("deadline", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_used_nonces")),
    )
    create_index("used_nonces", "deadline")


def downgrade() -> None:
    drop_index("used_nonces", "deadline")
    op.drop_table("used_nonces")
