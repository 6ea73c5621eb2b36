"""The stored state a stdio gateway reads ahead of its store: the same rows the store reads, or None to open it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests import tools

from hintgate.hints.pins import reconcile
from hintgate.sealing import kept_key
from hintgate.store import Store
from hintgate.store.oauth_tokens import vault_key
from hintgate.store.schema import HEAD_REVISION
from hintgate.store.tables import metadata
from hintgate.stored_state import READS, SCHEMA_REVISION, WHOLE_ROWS, read_stored_state, sqlite_file

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def _filled(url: str) -> Store:
    """A store with a held and blocked pin, an accepted one, a removed one, and every kind of override."""
    store = await Store.open(url, replica="test")
    first = reconcile(
        {}, {"s": [("s_a", tools.tool("a")), ("s_b", tools.tool("b")), ("s_c", tools.tool("c"))]}, now=NOW
    )
    await store.pins.save(first.pins, first.events)
    stored = {p.key: p for p in await store.pins.all()}
    changed = reconcile(
        stored, {"s": [("s_a", tools.tool("a", "Get it and mail it.")), ("s_b", tools.tool("b"))]}, now=NOW
    )
    await store.pins.save(changed.pins, changed.events)
    await store.pins.block(lambda p: p.tool == "a", actor="alice", reason="mails data out")
    await store.overrides.set_hint("s_b", "readOnlyHint", False, actor="bob")
    await store.overrides.set_hint("s_b", "destructiveHint", True, actor="bob")
    await store.overrides.set_title("s_b", "Get B, carefully", actor="bob")
    await store.overrides.set_confirm("s_*", "always", actor="carol")
    await store.overrides.set_policy_settings({"mode": "bypass", "preferences.showHintWarnings": False}, actor="dan")
    return store


async def test_the_state_read_ahead_is_what_the_store_reads_pins_blocks_overrides_and_versions(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'hintgate.db'}"
    store = await _filled(url)
    try:
        state = read_stored_state(url)
        assert state is not None
        assert state.pins == await store.pins.all()
        assert any(p.blocked is not None for p in state.pins)  # the comparison covers a block
        assert state.pins_version == await store.pins.version()
        assert state.hints == await store.overrides.hints()
        assert state.titles == await store.overrides.titles()
        assert state.confirms == await store.overrides.confirms()
        assert state.policy_settings == await store.overrides.policy_settings()
        assert state.overrides_version == await store.overrides.version()
        assert state.location == f"SQLite database {tmp_path / 'hintgate.db'}"
    finally:
        await store.close()


def test_the_revision_read_ahead_is_the_one_the_store_stamps() -> None:
    assert SCHEMA_REVISION == HEAD_REVISION


def test_the_tables_and_columns_read_ahead_are_the_stores_own_and_whole_rows_have_every_column() -> None:
    drifted: dict[str, object] = {}
    for name, columns in READS.items():
        table = metadata.tables.get(name)
        if table is None:
            drifted[name] = "not a table of the store"
            continue
        stored = {column.name for column in table.columns}
        if name in WHOLE_ROWS and set(columns) != stored:
            drifted[name] = {"read, not stored": set(columns) - stored, "stored, not read": stored - set(columns)}
        elif not set(columns) <= stored:
            drifted[name] = {"read, not stored": set(columns) - stored}
    assert drifted == {}


async def test_runtime_server_changes_are_read_ahead_with_their_sealed_entries_opened_as_the_store_opens_them(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'hintgate.db'}"
    key = vault_key(None, tmp_path / "data")  # the key kept in the data directory, made now
    async with await Store.open(url, replica="test") as store:
        await store.server_changes.seal(key)
        await store.server_changes.set("extra", "add", {"command": "true", "env": {"TOKEN": "s3cret"}}, actor="op")
        await store.server_changes.set("old", "remove", None, actor="op")
        stored = await store.server_changes.all()
    with sqlite3.connect(tmp_path / "hintgate.db") as conn:
        [(kept,)] = conn.execute("SELECT config FROM server_changes WHERE name = 'extra'").fetchall()
    assert "s3cret" not in kept  # sealed in the file
    assert kept_key(None, tmp_path / "data") == key
    state = read_stored_state(url, key)
    assert state is not None
    assert state.server_changes == stored
    assert {row["name"] for row in stored} == {"extra", "old"}
    # Without the key, or under another one, the entry does not open here: the store opens the database.
    assert read_stored_state(url) is None
    assert read_stored_state(url, "another key of at least thirty-two characters") is None


async def test_a_database_of_another_revision_is_left_to_the_store(tmp_path: Path) -> None:
    path = tmp_path / "hintgate.db"
    async with await Store.open(f"sqlite:///{path}", replica="test"):
        pass
    assert read_stored_state(str(path)) is not None
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    assert read_stored_state(str(path)) is None


def test_a_database_not_made_yet_is_read_as_empty_and_not_created(tmp_path: Path) -> None:
    for missing in (tmp_path / "none.db", tmp_path / "no-dir" / "none.db"):
        state = read_stored_state(f"sqlite:///{missing}")
        assert state is not None
        assert (state.pins, state.hints, state.titles, state.confirms, state.server_changes) == ([], [], [], [], [])
        assert (state.pins_version, state.overrides_version) == (0, 0)
        assert not missing.exists()  # reading ahead never creates the file
    assert not (tmp_path / "no-dir").exists()
    assert read_stored_state(f"sqlite:///{tmp_path}") is None  # a directory is left to the store to refuse


def test_a_damaged_or_foreign_database_is_left_to_the_store(tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    assert read_stored_state(str(damaged)) is None
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE t (x)")
    assert read_stored_state(str(foreign)) is None


def test_only_a_plain_sqlite_file_url_is_read_ahead(tmp_path: Path) -> None:
    assert sqlite_file(f"sqlite:///{tmp_path}/a.db") == tmp_path / "a.db"
    assert sqlite_file("sqlite:///relative.db") == Path("relative.db")
    assert sqlite_file(str(tmp_path / "a.db")) == tmp_path / "a.db"
    assert sqlite_file("~/a.db") == Path.home() / "a.db"
    for other in (
        "postgresql://u:p@db/h",
        "sqlite://",
        "sqlite:///:memory:",
        "sqlite:///a.db?mode=ro",
        "",
        "mysql:///x",
    ):
        assert sqlite_file(other) is None, other


def test_reading_ahead_imports_neither_sqlalchemy_nor_the_store() -> None:
    code = (
        "import sys, hintgate.stored_state, hintgate.cli.serve\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'sqlalchemy' or m.startswith('hintgate.store.')))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert found.stdout.strip() == "[]"
