"""What the store's migrations share: column types, required string columns, the columns several tables have, one
table two of them make, indexes named as the metadata names them, and columns dropped in batch mode.

A released migration must build the same schema for ever: never change what a
migration here uses; add a new helper beside it instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any, TypeAlias

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql


def json_value() -> sa.JSON:
    """JSON (JSONB on PostgreSQL) that keeps Python's None as SQL NULL."""
    return sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def moment() -> sa.DateTime:
    """A point in time with its time zone."""
    return sa.DateTime(timezone=True)


def required_string(name: str, *, length: int | None = None) -> sa.Column[Any]:
    """A required string column (VARCHAR, of `length` characters at most where given): a key, a name, a state."""
    return sa.Column(name, sa.String(length=length), nullable=False)


def stamp(verb: str) -> tuple[sa.Column[Any], sa.Column[Any]]:
    """When and by whom a row was last changed: `{verb}_at` and `{verb}_by`, both required."""
    return sa.Column(f"{verb}_at", moment(), nullable=False), required_string(f"{verb}_by")


def sealed() -> tuple[sa.Column[Any], sa.Column[Any]]:
    """A sealed (encrypted) document and when it was written: `sealed` and `updated_at`, both required."""
    return sa.Column("sealed", sa.LargeBinary(), nullable=False), sa.Column("updated_at", moment(), nullable=False)


def index_name(table: str, columns: Sequence[str]) -> str:
    """The name the metadata gives an index of `table` on `columns`: `ix_{table}_{columns joined by _}`."""
    return op.f(f"ix_{table}_{'_'.join(columns)}")


def create_index(table: str, *columns: str) -> None:
    """An index of `table` on `columns`, named as `index_name` says."""
    op.create_index(index_name(table, columns), table, list(columns))


def drop_index(table: str, *columns: str) -> None:
    """Drop the index `create_index` made."""
    op.drop_index(index_name(table, columns), table_name=table)


def drop_columns(table: str, *names: str) -> None:
    """Drop columns of `table`, in the order given: SQLite, which cannot drop most, rebuilds the table (batch mode)."""
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)


NullColumn: TypeAlias = tuple[str, str, sa.types.TypeEngine[Any]]
"""A nullable column with no default a migration adds to a table that exists: (table, column, type)."""


def add_null_columns(columns: Sequence[NullColumn]) -> None:
    """Add the columns, in order: a plain ADD COLUMN on both backends, so that the rows written before read NULL."""
    for table, name, type_ in columns:
        op.add_column(table, sa.Column(name, type_, nullable=True))


def drop_null_columns(columns: Sequence[NullColumn]) -> None:
    """Undo `add_null_columns`: drop the columns in the reverse order, a table's consecutive ones in one batch."""
    for table, same_table in groupby(reversed(columns), key=lambda column: column[0]):
        drop_columns(table, *(name for _, name, _ in same_table))


def create_user_credentials() -> None:
    """Per-person upstream logins keyed by name, as 0012 makes them (0015 drops them; undoing 0015 makes them again)."""
    op.create_table(
        "user_credentials",
        required_string("server"),
        required_string("user_name"),
        *sealed(),
        sa.PrimaryKeyConstraint("server", "user_name", name=op.f("pk_user_credentials")),
    )
