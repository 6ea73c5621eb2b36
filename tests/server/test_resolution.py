"""The Tool Resolution extension through the gateway: served for its clients, asked of its upstreams.

The MCP SDK's own client against `hintgate serve --http`, with
tests/fixtures/resolving_server.py behind it: a real SQLite file and one
generic `execute_sql` tool that its server resolves itself (honestly, or
claiming every statement is read-only).
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.extension import ClientExtension
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter
from tests.waiting import until

from hintgate.server.resolution import META_KEY
from hintgate.sources.resolution import RESOLUTION
from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

SERVER = str(Path(__file__).parents[1] / "fixtures" / "resolving_server.py")
ANSWER = TypeAdapter(dict[str, Any])
DRAFT_MEMBERS = {"resultType", "name", "annotations", "_meta"}


class Resolution(ClientExtension):
    """The client side of the extension: it only declares it."""

    identifier = RESOLUTION


class ResolveRequest(types.Request[dict[str, Any], str]):
    """`tools/resolve` (the tool's name goes in the `Mcp-Name` header too)."""

    name_param = "name"


def database(tmp_path: Path) -> Path:
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        db.execute("INSERT INTO users (name) VALUES ('ada')")
    return path


@contextmanager
def gateway(
    tmp_path: Path, mode: str, policy: dict[str, Any], *, record: bool = False, **top: Any
) -> Iterator[tuple[RunningGateway, Path]]:
    db = database(tmp_path)
    config = tmp_path / "hintgate.json"
    server = {"command": sys.executable, "args": [SERVER, str(db), mode]}
    config.write_text(json.dumps({"mcpServers": {"db": server}, "policy": policy, **top}))
    flags = () if record else ("--no-record",)
    with running_gateway("--config", str(config), *flags) as running:
        yield running, db


@asynccontextmanager
async def client(running: RunningGateway, mode: str, *, declares: bool = True) -> AsyncIterator[Client]:
    extensions = [Resolution()] if declares else None
    info = types.Implementation(name="agent", version="1.0")
    async with Client(running.mcp_transport(), mode=mode, client_info=info, extensions=extensions) as c:  # type: ignore[arg-type]
        yield c


async def resolve(c: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = await c.session.send_request(
        ResolveRequest(method="tools/resolve", params={"name": name, "arguments": arguments}), ANSWER
    )
    return answer


def users(db: Path) -> list[Any]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'users'").fetchall()


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_gateway_marks_resolvable_tools_and_answers_tools_resolve_with_exactly_the_drafts_members(
    tmp_path: Path, mode: str
) -> None:
    with gateway(tmp_path, "honest", {"mode": "default"}) as (running, _db), anyio.fail_after(60):
        async with client(running, mode) as c:
            listed = {t.name: t for t in (await c.list_tools()).tools}
            meta = listed["db_execute_sql"].meta or {}
            assert meta.get(RESOLUTION) == {"resolvable": True}
            read = await resolve(c, "db_execute_sql", {"sql": "SELECT * FROM users"})
            drop = await resolve(c, "db_execute_sql", {"sql": "DROP TABLE users"})
        for answer in (read, drop):
            assert set(answer) <= DRAFT_MEMBERS
            assert set(answer["annotations"]) == {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
            # hintgate's account under its own key; core result metadata (the 2026-07-28 serverInfo) beside it.
            assert META_KEY in answer["_meta"]
            assert set(answer["_meta"]) <= {META_KEY, "io.modelcontextprotocol/serverInfo"}
            assert answer["name"] == "db_execute_sql"
        assert read["annotations"]["readOnlyHint"] is True
        assert drop["annotations"] == {
            "readOnlyHint": False,
            "destructiveHint": True,
            "idempotentHint": False,
            "openWorldHint": False,
        }
        assert drop["_meta"][META_KEY]["does"] == "DROP TABLE users; destructive"
        assert drop["_meta"][META_KEY]["provenance"]["readOnlyHint"] == "argument:sql"


async def test_tools_resolve_needs_the_extension_a_known_tool_and_arguments_that_fit_its_schema(
    tmp_path: Path,
) -> None:
    with gateway(tmp_path, "honest", {"mode": "default"}) as (running, _db), anyio.fail_after(60):
        async with client(running, "2026-07-28", declares=False) as c:
            listed = {t.name: t for t in (await c.list_tools()).tools}
            assert RESOLUTION not in (listed["db_execute_sql"].meta or {})
            with pytest.raises(MCPError) as missing:
                await resolve(c, "db_execute_sql", {"sql": "SELECT 1"})
            assert missing.value.error.code == -32021
        async with client(running, "2026-07-28") as c:
            with pytest.raises(MCPError) as unknown:
                await resolve(c, "db_nothing", {})
            assert unknown.value.error.code == -32602
            with pytest.raises(MCPError) as wrong:
                await resolve(c, "db_execute_sql", {"sql": 42})
            assert wrong.value.error.code == -32602


async def test_an_upstream_that_claims_a_drop_is_read_only_through_its_own_tools_resolve_cannot_make_it_run(
    tmp_path: Path,
) -> None:
    # Read-only mode runs only reads: had the server's claim been believed, the DROP would have run.
    with gateway(tmp_path, "hostile", {"mode": "read-only"}) as (running, db), anyio.fail_after(60):
        async with client(running, "legacy") as c:
            selected = await c.call_tool("db_execute_sql", {"sql": "SELECT name FROM users"})
            dropped = await c.call_tool("db_execute_sql", {"sql": "DROP TABLE users"})
        assert not selected.is_error
        assert dropped.is_error
        assert "DROP TABLE users; destructive" in str(dropped.content)
        assert users(db) == [("users",)]
        asked = Path(f"{db}.resolved").read_text().splitlines()
        assert "DROP TABLE users" in asked  # its server was asked, and its answer weighed


async def test_a_call_through_call_tool_is_decided_by_what_the_called_tools_arguments_do(tmp_path: Path) -> None:
    # search_tools / call_tool served beside the catalog: call_tool's call is decided as a call of the tool it names.
    with gateway(tmp_path, "honest", {"mode": "read-only"}, search={"mode": "always"}) as (running, db):
        with anyio.fail_after(60):
            async with client(running, "legacy") as c:
                selected = await c.call_tool(
                    "call_tool", {"name": "db_execute_sql", "arguments": {"sql": "SELECT name FROM users"}}
                )
                dropped = await c.call_tool(
                    "call_tool", {"name": "db_execute_sql", "arguments": {"sql": "DROP TABLE users"}}
                )
    assert not selected.is_error
    assert dropped.is_error
    assert "DROP TABLE users; destructive" in str(dropped.content)
    assert users(db) == [("users",)]


async def test_the_record_keeps_each_calls_own_hints_and_what_it_does(tmp_path: Path) -> None:
    import httpx

    with gateway(tmp_path, "honest", {"mode": "read-only"}, record=True) as (running, _db):
        with anyio.fail_after(60):
            async with client(running, "legacy") as c:
                await c.call_tool("db_execute_sql", {"sql": "SELECT name FROM users"})
                await c.call_tool("db_execute_sql", {"sql": "DROP TABLE users"})

        def recorded() -> list[dict[str, Any]]:  # the recorder writes off the call path
            found: list[dict[str, Any]] = httpx.get(
                f"{running.base_url}/api/calls", headers=running.headers, timeout=10
            ).json()
            return found if len(found) >= 2 else []

        rows = until(recorded, "both calls recorded", within=30)
    by_verdict = {row["verdict"]: row for row in rows}
    read, drop = by_verdict["allow"], by_verdict["deny"]
    assert read["tier"] == "read-only"
    assert read["hints"]["provenance"]["readOnlyHint"] == "argument:sql"
    assert drop["tier"] == "destructive"
    assert drop["hints"]["does"] == "DROP TABLE users; destructive"
    assert drop["hints"]["static"]["tier"] == "destructive"
