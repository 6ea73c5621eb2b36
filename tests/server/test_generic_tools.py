"""Generic tools of real servers through the gateway: each call decided by what its arguments do.

Real servers from the registries, launched by a real gateway (`hintgate serve
--http`), called by the MCP SDK's client whose person answers every question
and remembers it: `mcp-server-sqlite` (PyPI) on a real SQLite file,
`@modelcontextprotocol/server-postgres` (npm) on the PostgreSQL the tests
start, and `mcp-shell-server` (PyPI) confined to a scratch directory with an
allow-list of commands. With `judgeArguments: false` every call has its
tool's own hints, as before.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from tests.asking import Person

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Path:
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT, qty INTEGER)")
        db.executemany("INSERT INTO orders (item, qty) VALUES (?, ?)", [("tea", 2), ("cake", 1)])
    return path


@pytest.fixture
def sqlite_server(sqlite_file: Path) -> dict[str, Any]:
    from real_servers import mcp1_server

    command = mcp1_server("mcp-server-sqlite")
    return {"command": command[0], "args": ["--db-path", str(sqlite_file)]}


@pytest.fixture
def postgres_url(postgres_server: Any) -> str:
    url: str = postgres_server.create_database("shop")
    psql = str(postgres_server.bin_dir / "psql")
    setup = "CREATE TABLE orders (id serial PRIMARY KEY, item text, qty int); INSERT INTO orders VALUES (1, 'tea', 2);"
    subprocess.run([psql, url, "-q", "-c", setup], check=True, capture_output=True, timeout=30)
    return url


@pytest.fixture
def scratch(tmp_path: Path) -> Path:
    root = tmp_path / "scratch"
    root.mkdir()
    (root / "notes.txt").write_text("buy tea\nbake cake\n")
    return root


@pytest.fixture
def shell_server(scratch: Path) -> dict[str, Any]:
    from real_servers import mcp1_server

    command = mcp1_server("mcp-shell-server")
    allowed = "ls,cat,grep,wc,head,rm,touch"
    return {"command": command[0], "cwd": str(scratch), "env": {"ALLOW_COMMANDS": allowed}}


@asynccontextmanager
async def gateway(tmp_path: Path, servers: dict[str, Any], person: Person, **policy: Any) -> AsyncIterator[Client]:
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": servers, "policy": policy}))
    with running_gateway("--config", str(config), "--no-record") as running:
        async with Client(running.mcp_transport(), mode="legacy", elicitation_callback=person) as client:
            yield client


def text(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


async def test_sqlite_a_drop_through_the_read_tool_asks_and_its_reads_run_unasked(
    tmp_path: Path, sqlite_server: dict[str, Any], sqlite_file: Path
) -> None:
    person = Person("deny")
    with anyio.fail_after(90):
        async with gateway(tmp_path, {"db": sqlite_server}, person, mode="default") as client:
            for sql in ("SELECT * FROM orders", "SELECT count(*) FROM orders WHERE qty > 1"):
                assert not (await client.call_tool("db_read_query", {"query": sql})).is_error
            assert person.asked == []
            dropped = await client.call_tool("db_read_query", {"query": "DROP TABLE orders"})
    assert dropped.is_error
    [question] = person.asked
    assert "What this call does (judged from its arguments): DROP TABLE orders; destructive" in question
    with sqlite3.connect(sqlite_file) as db:
        assert db.execute("SELECT count(*) FROM orders").fetchone() == (2,)


async def test_sqlite_in_accept_edits_an_insert_runs_and_a_delete_asks(
    tmp_path: Path, sqlite_server: dict[str, Any], sqlite_file: Path
) -> None:
    person = Person("deny")
    with anyio.fail_after(90):
        async with gateway(tmp_path, {"db": sqlite_server}, person, mode="accept-edits") as client:
            inserted = await client.call_tool(
                "db_write_query", {"query": "INSERT INTO orders (item, qty) VALUES ('jam', 3)"}
            )
            deleted = await client.call_tool("db_write_query", {"query": "DELETE FROM orders"})
    assert not inserted.is_error
    assert deleted.is_error
    [question] = person.asked
    assert "DELETE FROM orders; destructive" in question
    with sqlite3.connect(sqlite_file) as db:
        assert db.execute("SELECT count(*) FROM orders").fetchone() == (3,)


@pytest.mark.npm
async def test_postgres_a_select_runs_unasked_and_a_drop_through_the_read_only_query_tool_asks(
    tmp_path: Path, postgres_url: str
) -> None:
    from real_servers import npm_server

    command = npm_server("mcp-server-postgres")
    servers = {"pg": {"command": command[0], "args": [postgres_url]}}
    person = Person("deny")
    with anyio.fail_after(90):
        async with gateway(tmp_path, servers, person, mode="default") as client:
            selected = await client.call_tool("pg_query", {"sql": "SELECT item, qty FROM orders"})
            assert person.asked == []
            dropped = await client.call_tool("pg_query", {"sql": "DROP TABLE orders"})
    assert not selected.is_error
    assert "tea" in text(selected)
    assert dropped.is_error
    [question] = person.asked
    assert "DROP TABLE orders; destructive" in question


async def test_shell_reads_run_unasked_and_a_remove_asks_where_every_call_asked_before(
    tmp_path: Path, shell_server: dict[str, Any], scratch: Path
) -> None:
    reads = [["ls", "-la"], ["cat", "notes.txt"], ["grep", "tea", "notes.txt"], ["wc", "-l", "notes.txt"]]
    before, after = Person("approve-once"), Person("deny")
    with anyio.fail_after(120):
        async with gateway(tmp_path, {"sh": shell_server}, before, judgeArguments=False) as client:
            for argv in reads:
                assert not (await client.call_tool("sh_shell_execute", {"command": argv})).is_error
        async with gateway(tmp_path, {"sh": shell_server}, after) as client:
            for argv in reads:
                assert not (await client.call_tool("sh_shell_execute", {"command": argv})).is_error
            assert after.asked == []
            removed = await client.call_tool("sh_shell_execute", {"command": ["rm", "notes.txt"]})
    assert len(before.asked) == len(reads)
    assert removed.is_error
    [question] = after.asked
    assert "rm notes.txt; destructive" in question
    assert (scratch / "notes.txt").exists()
