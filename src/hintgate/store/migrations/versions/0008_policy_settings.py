"""Policy settings (mode, preferences) changed at run time, laid over the config file.

Revision ID: 0008
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import json_value, required_string, stamp

revision: str = "0008"
down_revision: str | None = "0006"


def upgrade() -> None:
    op.create_table(
        "policy_settings",
        required_string("setting"),
        sa.Column("value", json_value(), nullable=False),
        *stamp("updated"),
        sa.PrimaryKeyConstraint("setting", name=op.f("pk_policy_settings")),
    )


def downgrade() -> None:
    op.drop_table("policy_settings")
