"""Policy settings (mode, preferences) changed at run time, laid over the config file.

Revision ID: 0008
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0008"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def _json() -> sa.JSON:
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "policy_settings",
        sa.Column("setting", sa.String(), nullable=False),
        sa.Column("value", _json(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("setting", name=op.f("pk_policy_settings")),
    )


def downgrade() -> None:
    op.drop_table("policy_settings")
