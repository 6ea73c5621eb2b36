"""Migrations build exactly `tables.py`; a new database is created as they build it; an older one is migrated."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine
from tests.isolation import child_env

from hintgate.store import RecordingSettings, Store, database_url
from hintgate.store.schema import HEAD_REVISION, migrate
from hintgate.store.tables import metadata, sessions

if TYPE_CHECKING:
    from conftest import Records

pytestmark = pytest.mark.anyio


def _config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "hintgate.store:migrations")
    config.set_main_option("path_separator", "os")
    return config


def _head() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


async def _inspect(url: str, fn: Any) -> Any:
    engine = create_async_engine(database_url(url))
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(fn)
    finally:
        await engine.dispose()


async def _migrated(url: str, revision: str = "head") -> None:
    """Build the database at `url` by running the migrations, as an older hintgate did."""
    engine = create_async_engine(database_url(url))
    try:
        async with engine.begin() as conn:
            await conn.run_sync(migrate, revision)
    finally:
        await engine.dispose()


def _schema(conn: sa.Connection) -> dict[str, Any]:
    """Every table's columns, keys, indexes and constraints, as the database reports them."""
    inspector = sa.inspect(conn)
    facts: dict[str, Any] = {}
    for table in inspector.get_table_names():
        facts[table] = {
            "columns": sorted(
                (c["name"], str(c["type"]), c["nullable"], str(c.get("default"))) for c in inspector.get_columns(table)
            ),
            "primary key": inspector.get_pk_constraint(table),
            "indexes": sorted(
                (i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in inspector.get_indexes(table)
            ),
            "unique": sorted((u["name"], tuple(u["column_names"])) for u in inspector.get_unique_constraints(table)),
            "foreign keys": sorted(
                (f["name"], tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]))
                for f in inspector.get_foreign_keys(table)
            ),
            "checks": sorted(
                (c["name"], " ".join(c["sqltext"].split())) for c in inspector.get_check_constraints(table)
            ),
        }
    return facts


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
            "login_waits",
            "oauth_credentials",
            "person_credentials",
            "person_preferences",
            "pin_events",
            "policy_settings",
            "scan_verdicts",
            "server_changes",
            "sessions",
            "tasks",
            "title_overrides",
            "tool_calls",
            "tool_confirms",
            "tool_pins",
            "used_nonces",
        ],
        [("overrides", 0), ("pins", 0)],
    )
    await (await Store.open(store_url, replica="m")).close()
    assert await _inspect(store_url, _state) == first


async def test_the_migrations_build_exactly_the_tables_module(store_url: str) -> None:
    await _migrated(store_url)

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


@pytest.fixture
def second_url(store_url: str, request: pytest.FixtureRequest, tmp_path: Any) -> str:
    """Another empty database on the same backend as `store_url`."""
    if store_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'second.db'}"
    server = request.getfixturevalue("postgres_server")
    url: str = server.create_database()
    return url


def test_the_head_revision_the_store_knows_is_the_newest_migration() -> None:
    assert _head() == HEAD_REVISION


async def test_a_new_database_is_created_exactly_as_the_migrations_build_it(store_url: str, second_url: str) -> None:
    await (await Store.open(store_url, replica="m")).close()
    await _migrated(second_url)
    created, migrated = await _inspect(store_url, _schema), await _inspect(second_url, _schema)
    assert sorted(created) == sorted(migrated)
    for table in created:
        assert created[table] == migrated[table], table
    assert await _inspect(store_url, _state) == await _inspect(second_url, _state)


async def test_a_database_of_an_older_revision_is_migrated_on_open_and_keeps_its_rows(store_url: str) -> None:
    script = ScriptDirectory.from_config(_config())
    previous = script.get_revision(HEAD_REVISION).down_revision
    assert isinstance(previous, str)
    await _migrated(store_url, previous)
    engine = create_async_engine(database_url(store_url))
    try:
        async with engine.begin() as conn:
            moment = datetime(2026, 1, 1, tzinfo=UTC)
            await conn.execute(
                sessions.insert().values(id=_OLD, started_at=moment, ended_at=moment, status="closed", replica="old")
            )
    finally:
        await engine.dispose()
    await (await Store.open(store_url, replica="m")).close()
    revision, _, _ = await _inspect(store_url, _state)
    assert revision == HEAD_REVISION
    rows = await _inspect(store_url, lambda conn: conn.execute(sa.text("SELECT id FROM sessions")).scalars().all())
    assert rows == [_OLD]


async def test_calls_recorded_before_config_paths_were_kept_read_as_null_beside_new_ones(
    store_url: str, records: Records
) -> None:
    await _migrated(store_url, "0012")
    engine = create_async_engine(database_url(store_url))
    try:
        async with engine.begin() as conn:
            moment = datetime(2026, 1, 1, tzinfo=UTC)
            await conn.execute(
                sa.text(
                    "INSERT INTO tool_calls (id, server_id, tool_name, upstream_tool, started_at, duration_ms) "
                    "VALUES ('before', 'time', 'time_now', 'now', :at, 1.0)"
                ),
                {"at": moment},
            )
    finally:
        await engine.dispose()
    async with await Store.open(store_url, RecordingSettings(commit_interval=0.01), replica="m") as store:
        store.record_call(records.call(None, id="after", config_path="/etc/hintgate/servers.yaml"))
        await store.flush()
        paths = {row["id"]: row["config_path"] for row in await store.calls(limit=10)}
    assert paths == {"before": None, "after": "/etc/hintgate/servers.yaml"}


_OLD = "0b1c2d3e-0000-4000-8000-000000000001"


async def test_rows_keyed_by_a_persons_name_get_no_key_and_their_upstream_logins_are_dropped_saying_so(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Migration 0015: a name does not say which account wrote a row, so only the API token's rows get a key,
    and logins kept under a name are forgotten with a warning (each person logs in again)."""
    await _migrated(store_url, "0014")
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    people = {"api-token": "0b1c2d3e-0000-4000-8000-0000000000a1", "alice@example.com": _OLD}
    engine = create_async_engine(database_url(store_url))
    try:
        async with engine.begin() as conn:
            for name, sid in people.items():
                await conn.execute(
                    sa.text(
                        "INSERT INTO sessions (id, user_name, started_at, status, replica) "
                        "VALUES (:id, :name, :at, 'active', 'old')"
                    ),
                    {"id": sid, "name": name, "at": moment},
                )
            await conn.execute(
                sa.text(
                    "INSERT INTO approvals (id, user_name, tool, server, reason, asked_at, expires_at, replica, state) "
                    "VALUES ('ap-1', 'alice@example.com', 'fs_write', 'fs', 'asks', :at, :at, 'old', 'pending')"
                ),
                {"at": moment},
            )
            await conn.execute(
                sa.text(
                    "INSERT INTO user_credentials (server, user_name, sealed, updated_at) "
                    "VALUES ('tracker', 'alice@example.com', :sealed, :at)"
                ),
                {"sealed": b"sealed", "at": moment},
            )
    finally:
        await engine.dispose()
    with caplog.at_level("WARNING", logger="hintgate"):
        await (await Store.open(store_url, replica="m")).close()

    def read(conn: sa.Connection) -> Any:
        keys = dict(conn.execute(sa.text("SELECT user_name, user_key FROM sessions")).all())
        approval = conn.execute(sa.text("SELECT user_name, user_key, state FROM approvals")).one()
        logins = conn.execute(sa.text("SELECT count(*) FROM person_credentials")).scalar_one()
        return keys, tuple(approval), logins, set(sa.inspect(conn).get_table_names())

    keys, approval, logins, tables = await _inspect(store_url, read)
    assert keys == {"api-token": "api-token", "alice@example.com": None}
    assert approval == ("alice@example.com", None, "pending")
    assert logins == 0
    assert "user_credentials" not in tables
    assert any("1 per-person upstream login(s)" in r.getMessage() for r in caplog.records)


_OPEN_AND_REPORT = """
import asyncio, sys
from hintgate.store import Store
async def main():
    await (await Store.open(sys.argv[1], replica="m")).close()
asyncio.run(main())
print("alembic" in sys.modules)
"""


def _opens_with_alembic(url: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", _OPEN_AND_REPORT, url],
        check=False,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip() == "True"


async def test_only_an_older_database_makes_the_store_load_the_migration_tool(store_url: str, second_url: str) -> None:
    assert not _opens_with_alembic(store_url)  # new: created directly
    assert not _opens_with_alembic(store_url)  # current: one query
    script = ScriptDirectory.from_config(_config())
    await _migrated(second_url, str(script.get_revision(HEAD_REVISION).down_revision))
    assert _opens_with_alembic(second_url)


async def test_sessions_and_approvals_recorded_before_views_read_as_null_beside_a_views_session(
    store_url: str, records: Records
) -> None:
    await _migrated(store_url, "0013")
    engine = create_async_engine(database_url(store_url))
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(
                    "INSERT INTO sessions (id, status, started_at, tool_call_count, total_tokens, replica) "
                    "VALUES (:id, 'active', :at, 0, 0, 'm')"
                ),
                {"id": _OLD, "at": datetime(2026, 1, 1, tzinfo=UTC)},
            )
    finally:
        await engine.dispose()
    viewed = records.session(view="read-only")
    async with await Store.open(store_url, RecordingSettings(commit_interval=0.01), replica="m") as store:
        store.session_started(viewed)
        await store.flush()
        views = {row["id"]: row["view"] for row in await store.recent_sessions(10)}
    assert views == {_OLD: None, viewed.id: "read-only"}


async def test_a_database_from_before_peoples_own_preferences_gets_their_table_and_keeps_the_policy_settings(
    store_url: str,
) -> None:
    await _migrated(store_url, "0017")
    engine = create_async_engine(database_url(store_url))
    try:
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(
                    "INSERT INTO policy_settings (setting, value, updated_at, updated_by) "
                    "VALUES ('mode', '\"accept-edits\"', :at, 'api-token')"
                ),
                {"at": datetime(2026, 1, 1, tzinfo=UTC)},
            )
    finally:
        await engine.dispose()
    async with await Store.open(store_url, RecordingSettings(commit_interval=0.01), replica="m") as store:
        parts = store.overrides
        before = await parts.version()
        await parts.set_person_preferences("bob@example.com", {"preferences.alwaysConfirmDestructive": True}, ())
        kept = [(r["person"], r["setting"], r["value"]) for r in await parts.person_preferences()]
        await parts.set_person_preferences("bob@example.com", {}, ["preferences.alwaysConfirmDestructive"])
        after = await parts.person_preferences()
        policy = [(r["setting"], r["value"], r["updated_by"]) for r in await parts.policy_settings()]
        version = await parts.version()
    assert kept == [("bob@example.com", "preferences.alwaysConfirmDestructive", True)]
    assert after == []
    assert policy == [("mode", "accept-edits", "api-token")]
    assert version == before + 2, "each change tells the other replicas"
