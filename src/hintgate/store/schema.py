"""Bringing a database to the current schema, without the migration tool when it is not needed.

Every open checks the schema. Three cases:

- the database is stamped with `HEAD_REVISION`: nothing to do (one query);
- the database is empty: the tables of `hintgate.store.tables` are created in
  one pass, the counters seeded, and the database stamped with
  `HEAD_REVISION`, exactly what running every migration would leave (a test
  compares the two, constraint by constraint, on SQLite and PostgreSQL);
- anything else (an older hintgate's database): Alembic runs the migrations
  from its revision to the head.

Alembic (with Mako and Pygments, ~11 MB resident) is imported in the last case
only, so a gateway on a new or current database never carries it.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, inspect, select
from sqlalchemy.engine import Connection

from hintgate.store.tables import COUNTER_NAMES, counters, metadata
from hintgate.stored_state import SCHEMA_REVISION

__all__ = ["HEAD_REVISION", "migrate", "upgrade"]

HEAD_REVISION = SCHEMA_REVISION
"""The newest migration's revision (a test checks it is Alembic's head): a new migration moves it
(`hintgate.stored_state.SCHEMA_REVISION`, where a stdio gateway's first read checks it without SQLAlchemy)."""

_MIGRATIONS = Path(__file__).parent / "migrations"

# Alembic's own bookkeeping table, as Alembic creates it.
_version = Table(
    "alembic_version",
    MetaData(),
    Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
)


def upgrade(conn: Connection) -> None:
    """Bring the database on `conn` to the current schema, inside the caller's transaction."""
    present = set(inspect(conn).get_table_names())
    if _version.name in present:
        if list(conn.execute(select(_version.c.version_num)).scalars()) == [HEAD_REVISION]:
            return
    elif not present & set(metadata.tables):
        _create(conn)
        return
    migrate(conn)


def _create(conn: Connection) -> None:
    metadata.create_all(conn)
    conn.execute(counters.insert(), [{"name": name, "value": 0} for name in COUNTER_NAMES])
    _version.create(conn)
    conn.execute(_version.insert().values(version_num=HEAD_REVISION))


def migrate(conn: Connection, revision: str = "head") -> None:
    """Run Alembic's migrations on `conn` up to `revision` (the head by default)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = conn
    command.upgrade(config, revision)
