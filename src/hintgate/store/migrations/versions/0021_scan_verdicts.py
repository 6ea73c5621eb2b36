"""The poisoning scan of each tool definition listed, kept for the next start under the same rules.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import moment, required_string

revision: str = "0021"
down_revision: str | None = "0020"


def upgrade() -> None:
    op.create_table(
        "scan_verdicts",
        required_string("key", length=64),
        required_string("rules", length=64),
        sa.Column("verdict", sa.Text(), nullable=False),
        sa.Column("scanned_at", moment(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_scan_verdicts")),
    )


def downgrade() -> None:
    op.drop_table("scan_verdicts")
