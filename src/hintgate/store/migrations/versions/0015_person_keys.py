"""People keyed by who they are (the issuer and their subject), never by their name.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02

Sessions, calls and approvals gain `user_key` beside `user_name` (the name
stays, for people to read and rules to match). Rows of the API token get its
key, which is its name; a person's rows written before keep `user_key` NULL:
their subject was never recorded, so they cannot be given one (an approval
of theirs still pending is told apart from its answerer by name, as before).

Per-person upstream logins move from `user_credentials`, keyed by name, to
`person_credentials`, keyed by the person's key. The old rows are not carried
over: a name does not say which account wrote the row (an account whose
username was someone else's address wrote under that address), so a row
given to whoever has the name now could hand one person another's upstream
account. They are dropped, counted in a warning; each person logs in again
at their next call that needs it, through the page their client is sent to.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

from hintgate.store.migrations.columns import (
    create_index,
    create_user_credentials,
    drop_columns,
    drop_index,
    required_string,
    sealed,
)

revision: str = "0015"
down_revision: str | None = "0014"

logger = logging.getLogger("hintgate")


def upgrade() -> None:
    # Plain ADD COLUMNs on both backends: never a rebuild of sessions, which tool_calls cascade from.
    for table in ("sessions", "tool_calls"):
        op.add_column(table, sa.Column("user_key", sa.String(), nullable=True))
        create_index(table, "user_key", "started_at")
        op.execute(sa.text(f"UPDATE {table} SET user_key = user_name WHERE user_name = 'api-token'"))
    op.add_column("approvals", sa.Column("user_key", sa.String(), nullable=True))
    op.execute(sa.text("UPDATE approvals SET user_key = user_name WHERE user_name = 'api-token'"))
    op.create_table(
        "person_credentials",
        required_string("server"),
        required_string("person"),
        sa.Column("name", sa.String(), nullable=True),
        *sealed(),
        sa.PrimaryKeyConstraint("server", "person", name=op.f("pk_person_credentials")),
    )
    dropped = op.get_bind().execute(sa.text("SELECT count(*) FROM user_credentials")).scalar_one()
    if dropped:
        logger.warning(
            "%d per-person upstream login(s) were kept under people's names and are forgotten: a name does not say "
            "which account wrote them; each person logs in again at their next call that needs it",
            dropped,
        )
    op.drop_table("user_credentials")


def downgrade() -> None:
    create_user_credentials()
    op.drop_table("person_credentials")
    drop_columns("approvals", "user_key")
    for table in ("sessions", "tool_calls"):
        drop_index(table, "user_key", "started_at")
        drop_columns(table, "user_key")
