"""Database URLs: the user names a database, hintgate picks the driver; bad URLs say what is wrong."""

from __future__ import annotations

import socket
import stat
from pathlib import Path

import pytest

from hintgate.store import Store, StoreError, database_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///relative.db", "sqlite+aiosqlite:///relative.db"),
        ("sqlite:////abs/h.db", "sqlite+aiosqlite:////abs/h.db"),
        ("sqlite+pysqlite:////abs/h.db", "sqlite+aiosqlite:////abs/h.db"),
        ("/abs/plain/path.db", "sqlite+aiosqlite:////abs/plain/path.db"),
        ("sqlite:///:memory:", "sqlite+aiosqlite:///:memory:"),
        ("postgresql://u:pw@db.example:5433/h", "postgresql+asyncpg://u:pw@db.example:5433/h"),
        ("postgres://u@db/h", "postgresql+asyncpg://u@db/h"),
        ("postgresql+psycopg2://u@db/h", "postgresql+asyncpg://u@db/h"),
        ("postgresql://u@db/h?sslmode=require", "postgresql+asyncpg://u@db/h?ssl=require"),
    ],
)
def test_plain_urls_get_hintgates_driver(given: str, expected: str) -> None:
    assert database_url(given) == expected


def test_a_home_relative_sqlite_path_is_expanded() -> None:
    assert database_url("sqlite:///~/h.db") == f"sqlite+aiosqlite:///{Path.home() / 'h.db'}"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("mysql://root:hunter2@db/h", "unsupported database URL mysql://root:\\*\\*\\*@db/h"),
        ("postgresql://root:hunter2@db:port/h", "invalid database URL postgresql://root:\\*\\*\\*@db:port/h"),
        ("sqlite://host/h.db", "a SQLite URL names a file"),
        ("   ", "empty"),
    ],
)
def test_a_bad_url_is_named_with_its_password_masked(given: str, message: str) -> None:
    with pytest.raises(StoreError, match=message) as caught:
        database_url(given)
    assert "hunter2" not in str(caught.value)


@pytest.mark.anyio
async def test_an_unreachable_server_is_named_with_its_password_masked() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound, not listening: connections are refused
        with pytest.raises(StoreError, match=f"PostgreSQL at 127.0.0.1:{port}") as caught:
            await Store.open(f"postgresql://hintgate:hunter2@127.0.0.1:{port}/h")
    assert "hunter2" not in str(caught.value)
    assert "***" in str(caught.value)


@pytest.mark.anyio
async def test_a_file_that_is_not_a_database_is_named(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are not the tables you are looking for\n" * 100)
    with pytest.raises(StoreError, match=f"SQLite database {path}"):
        await Store.open(f"sqlite:///{path}")


@pytest.mark.anyio
async def test_a_directory_that_cannot_be_made_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    database = blocker / "sub" / "h.db"
    with pytest.raises(StoreError) as info:
        await Store.open(f"sqlite:///{database}")
    assert str(info.value) == (
        f"cannot create SQLite database {database}: {blocker} is a file, not a directory, so {blocker / 'sub'} "
        "cannot be made under it"
    )


@pytest.mark.anyio
async def test_a_directory_where_the_database_file_should_be_is_named_and_left_as_it_was(tmp_path: Path) -> None:
    database = tmp_path / "h.db"
    database.mkdir(mode=0o755)
    with pytest.raises(StoreError, match=f"{database} is a directory, not a file"):
        await Store.open(f"sqlite:///{database}")
    assert stat.S_IMODE(database.stat().st_mode) == 0o755


@pytest.mark.anyio
async def test_an_in_memory_database_works_for_tests() -> None:
    async with await Store.open("sqlite:///:memory:", replica="mem") as store:
        await store.overrides.set_hint("t", "readOnlyHint", True)
        assert len(await store.overrides.hints()) == 1
