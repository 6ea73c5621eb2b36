"""Alembic migrations build exactly `tables.py`, are applied on open, and a second open changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine

from hintgate.store import Store, database_url
from hintgate.store.tables import metadata

pytestmark = pytest.mark.anyio


def _head() -> str:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "hintgate.store:migrations")
    config.set_main_option("path_separator", "os")
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


async def _inspect(url: str, fn: Any) -> Any:
    engine = create_async_engine(database_url(url))
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(fn)
    finally:
        await engine.dispose()


def _state(conn: sa.Connection) -> tuple[str | None, list[str], Any]:
    context = MigrationContext.configure(conn)
    tables = sorted(sa.inspect(conn).get_table_names())
    counters = conn.execute(sa.text("SELECT name, value FROM counters")).all()
    return context.get_current_revision(), tables, [tuple(row) for row in counters]


async def test_a_fresh_database_is_migrated_to_head_and_a_second_open_is_a_no_op(store_url: str) -> None:
    await (await Store.open(store_url, replica="m")).close()
    first = await _inspect(store_url, _state)
    assert first == (
        _head(),
        [
            "alembic_version",
            "approvals",
            "counters",
            "hint_overrides",
            "oauth_credentials",
            "pin_events",
            "server_changes",
            "sessions",
            "title_overrides",
            "tool_calls",
            "tool_confirms",
            "tool_pins",
        ],
        [("overrides", 0), ("pins", 0)],
    )
    await (await Store.open(store_url, replica="m")).close()
    assert await _inspect(store_url, _state) == first


async def test_the_migrations_build_exactly_the_tables_module(store_url: str) -> None:
    await (await Store.open(store_url, replica="m")).close()

    def diff(conn: sa.Connection) -> list[Any]:
        context = MigrationContext.configure(conn, opts={"compare_type": True, "compare_server_default": True})
        return list(compare_metadata(context, metadata))

    assert await _inspect(store_url, diff) == []


async def test_the_comparison_would_see_a_table_change(store_url: str) -> None:
    await (await Store.open(store_url, replica="m")).close()
    changed = sa.MetaData(naming_convention=metadata.naming_convention)
    for table in metadata.tables.values():
        table.to_metadata(changed)
    changed.tables["sessions"].append_column(sa.Column("note", sa.String))

    def diff(conn: sa.Connection) -> list[Any]:
        return list(compare_metadata(MigrationContext.configure(conn), changed))

    assert [entry[0] for entry in await _inspect(store_url, diff)] == ["add_column"]
