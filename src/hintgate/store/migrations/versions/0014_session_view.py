"""The view each session was served (`/mcp/NAME`, `serve --view NAME`), and the view of each waiting call.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"


def upgrade() -> None:
    # Plain ADD COLUMNs on both backends (nullable, no default): earlier sessions and approvals keep NULL,
    # which is what a session of the whole catalog records too.
    op.add_column("sessions", sa.Column("view", sa.String(), nullable=True))
    op.add_column("approvals", sa.Column("view", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("approvals") as batch:
        batch.drop_column("view")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("view")
