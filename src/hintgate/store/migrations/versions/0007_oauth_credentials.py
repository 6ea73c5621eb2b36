"""OAuth tokens and client registrations of upstream servers, encrypted.

Revision ID: 0007
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import required_string, sealed

revision: str = "0007"
down_revision: str | None = "0004"


def upgrade() -> None:
    op.create_table(
        "oauth_credentials",
        required_string("server"),
        *sealed(),
        sa.PrimaryKeyConstraint("server", name=op.f("pk_oauth_credentials")),
    )


def downgrade() -> None:
    op.drop_table("oauth_credentials")
