"""A person's own preferences, laid over the policy for their calls only (where they ask more).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import json_value, moment, required_string

revision: str = "0018"
down_revision: str | None = "0017"


def upgrade() -> None:
    op.create_table(
        "person_preferences",
        required_string("person"),
        required_string("setting"),
        sa.Column("value", json_value(), nullable=False),
        sa.Column("updated_at", moment(), nullable=False),
        sa.PrimaryKeyConstraint("person", "setting", name=op.f("pk_person_preferences")),
    )


def downgrade() -> None:
    op.drop_table("person_preferences")
