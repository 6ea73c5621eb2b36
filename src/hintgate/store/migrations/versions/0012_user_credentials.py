"""Each person's OAuth login to a server that logs in per person, encrypted.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

from hintgate.store.migrations.columns import create_user_credentials

revision: str = "0012"
down_revision: str | None = "0011"


def upgrade() -> None:
    create_user_credentials()


def downgrade() -> None:
    op.drop_table("user_credentials")
