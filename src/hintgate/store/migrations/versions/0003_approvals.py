"""The approval queue, shared by every replica.

Revision ID: 0003
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import create_index, json_value, moment, required_string

revision: str = "0003"
down_revision: str | None = "0007"


def upgrade() -> None:
    op.create_table(
        "approvals",
        required_string("id", length=36),
        sa.Column("call_id", sa.String(), nullable=True),
        sa.Column("session_id", sa.String(length=36), nullable=True),
        sa.Column("client_name", sa.String(), nullable=True),
        required_string("tool"),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("title_origin", sa.String(length=16), nullable=True),
        required_string("server"),
        sa.Column("arguments", json_value(), nullable=True),
        sa.Column("hints", json_value(), nullable=True),
        sa.Column("warnings", json_value(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("asked_at", moment(), nullable=False),
        sa.Column("expires_at", moment(), nullable=False),
        required_string("replica"),
        sa.Column("state", sa.String(length=16), server_default="pending", nullable=False),
        sa.Column("answer", sa.String(length=16), nullable=True),
        sa.Column("answered_by", sa.String(), nullable=True),
        sa.Column("answered_via", sa.String(length=16), nullable=True),
        sa.Column("answered_at", moment(), nullable=True),
        sa.Column("end_reason", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "state IN ('pending', 'approved', 'denied', 'expired', 'withdrawn')", name=op.f("ck_approvals_state")
        ),
        sa.CheckConstraint(
            "answer IS NULL OR answer IN ('approve-once', 'approve-session', 'deny')", name=op.f("ck_approvals_answer")
        ),
        sa.CheckConstraint(
            "(state = 'pending' AND answered_at IS NULL) OR (state <> 'pending' AND answered_at IS NOT NULL)",
            name=op.f("ck_approvals_answered_iff_settled"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_approvals")),
    )
    create_index("approvals", "state", "expires_at")
    create_index("approvals", "replica", "state")
    create_index("approvals", "answered_at")


def downgrade() -> None:
    op.drop_table("approvals")
