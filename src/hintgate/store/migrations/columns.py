"""What the store's migrations share: column types, the who-and-when columns, one table two of them make.

A released migration must build the same schema for ever: never change what a
migration here uses; add a new helper beside it instead.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql


def json_value() -> sa.JSON:
    """JSON (JSONB on PostgreSQL) that keeps Python's None as SQL NULL."""
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def moment() -> sa.DateTime:
    """A point in time with its time zone."""
    return sa.DateTime(timezone=True)


def stamp(verb: str) -> tuple[sa.Column[Any], sa.Column[Any]]:
    """When and by whom a row was last changed: `{verb}_at` and `{verb}_by`, both required."""
    return sa.Column(f"{verb}_at", moment(), nullable=False), sa.Column(f"{verb}_by", sa.String(), nullable=False)


def create_user_credentials() -> None:
    """Per-person upstream logins keyed by name, as 0012 makes them (0015 drops them; undoing 0015 makes them again)."""
    op.create_table(
        "user_credentials",
        sa.Column("server", sa.String(), nullable=False),
        sa.Column("user_name", sa.String(), nullable=False),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", moment(), nullable=False),
        sa.PrimaryKeyConstraint("server", "user_name", name=op.f("pk_user_credentials")),
    )
