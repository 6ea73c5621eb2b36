"""People's upstream logins waiting for their browser, shared by every replica.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, drop_index, json_value, moment, required_string

revision: str = "0016"
down_revision: str | None = "0015"


def upgrade() -> None:
    op.create_table(
        "login_waits",
        required_string("state"),
        required_string("server"),
        required_string("person"),
        required_string("browser", length=64),
        required_string("replica"),
        sa.Column("started_at", moment(), nullable=False),
        sa.Column("expires_at", moment(), nullable=False),
        sa.Column("answer", json_value(), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.CheckConstraint("outcome IS NULL OR outcome IN ('done', 'failed')", name=op.f("ck_login_waits_outcome")),
        sa.PrimaryKeyConstraint("state", name=op.f("pk_login_waits")),
    )
    create_index("login_waits", "expires_at")


def downgrade() -> None:
    drop_index("login_waits", "expires_at")
    op.drop_table("login_waits")
