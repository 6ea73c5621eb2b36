"""Search, call_tool and views through a real gateway over the six reference servers and 1,000 more tools.

`hintgate serve --http` over mcp-server-time, mcp-server-git and mcp-server-fetch (PyPI), the npm
filesystem, memory and everything servers, and a synthetic server listing 1,000 tools
(bench/upstream_many_tools.py); real MCP SDK clients of both protocol eras; `serve --view` over stdio.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from tests.asking import Person

from hintgate.testing import RunningGateway, running_gateway
from isolation import child_env
from real_servers import npm_server, python_server

pytestmark = pytest.mark.anyio

REPO = Path(__file__).parents[2]
SYNTH = REPO / "bench" / "upstream_many_tools.py"


def servers(root: Path) -> dict[str, Any]:
    files, repo = root / "files", root / "repo"
    files.mkdir()
    (files / "notes.txt").write_text("keep me\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True, timeout=30)

    def entry(argv: list[str], **extra: Any) -> dict[str, Any]:
        return {"command": argv[0], "args": argv[1:], **extra}

    return {
        "time": entry([*python_server("mcp-server-time"), "--local-timezone", "UTC"]),
        "git": entry([*python_server("mcp-server-git"), "--repository", str(repo)]),
        "fetch": entry(python_server("mcp-server-fetch")),
        "fs": entry([*npm_server("mcp-server-filesystem"), str(files)]),
        "memory": entry(npm_server("mcp-server-memory"), env={"MEMORY_FILE_PATH": str(root / "memory.json")}),
        "every": entry([*npm_server("mcp-server-everything"), "stdio"]),
        "synth": entry([sys.executable, str(SYNTH), "--tools", "1000"]),
    }


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("search-e2e")
    path = root / "hintgate.json"
    python = {"notes": {"registry": "python_tools:registry", "path": [str(REPO / "tests" / "fixtures")]}}
    path.write_text(json.dumps({"mcpServers": servers(root), "python": python, "policy": {"mode": "default"}}))
    return path


@pytest.fixture(scope="module")
def gateway(config: Path) -> Iterator[RunningGateway]:
    with running_gateway("--config", str(config), "--no-record", startup_timeout=180) as running:
        yield running


async def every_tool(client: Client) -> list[types.Tool]:
    """The whole `tools/list`, every page of it."""
    page = await client.list_tools()
    tools = list(page.tools)
    while page.next_cursor:
        page = await client.list_tools(cursor=page.next_cursor)
        tools += page.tools
    return tools


def structured(result: types.CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


async def test_search_finds_a_reference_servers_tool_among_1000_others_and_call_tool_runs_it(
    gateway: RunningGateway,
) -> None:
    with anyio.fail_after(120):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            listed = [t.name for t in (await every_tool(client))]
            found = structured(
                await client.call_tool("search_tools", {"query": "what time is it right now in Tokyo", "limit": 5})
            )["tools"]
            named = next(t["name"] for t in found if t["name"].endswith("get_current_time"))
            now = await client.call_tool("call_tool", {"name": named, "arguments": {"timezone": "Asia/Tokyo"}})
    assert len(listed) > 1000
    assert listed[-2:] == ["search_tools", "call_tool"]
    assert {t["name"] for t in found[:2]} == {"time_get_current_time", "time_convert_time"}
    assert {t["server"] for t in found[:2]} == {"time"}
    assert now.is_error is False
    assert "Asia/Tokyo" in now.content[0].text  # type: ignore[union-attr]


async def test_read_only_search_over_every_server_returns_only_read_only_tools(gateway: RunningGateway) -> None:
    queries = ["delete a file", "write to the knowledge graph", "commit changes", "create an issue", "echo text"]
    with anyio.fail_after(120):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            hints = {t.name: t.annotations for t in (await every_tool(client))}
            found = [
                structured(await client.call_tool("search_tools", {"query": q, "readOnly": True, "limit": 50}))
                for q in queries
            ]
    returned = [t["name"] for answer in found for t in answer["tools"]]
    assert returned
    assert all(hints[name] is not None and hints[name].read_only_hint is True for name in returned)  # type: ignore[union-attr]


async def test_a_destructive_tool_called_through_call_tool_asks_and_does_not_run_when_denied(
    gateway: RunningGateway, config: Path
) -> None:
    person = Person("deny")
    notes = config.parent / "files" / "notes.txt"
    with anyio.fail_after(120):
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=person) as client:
            found = structured(
                await client.call_tool("search_tools", {"query": "overwrite a file with new content", "server": "fs"})
            )["tools"]
            written = await client.call_tool(
                "call_tool", {"name": "fs_write_file", "arguments": {"path": str(notes), "content": "gone"}}
            )
    assert "fs_write_file" in [t["name"] for t in found]
    assert written.is_error is True
    assert len(person.asked) == 1
    assert "fs_write_file" in person.asked[0]
    assert notes.read_text() == "keep me\n"


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_the_read_only_view_refuses_a_write_in_both_protocol_eras(
    gateway: RunningGateway, config: Path, mode: str
) -> None:
    notes = config.parent / "files" / "notes.txt"
    write = {"path": str(notes), "content": "gone"}
    with anyio.fail_after(120):
        async with Client(gateway.mcp_transport(view="read-only"), mode=mode) as client:  # type: ignore[arg-type]
            listed = {t.name: t.annotations for t in (await every_tool(client))}
            found = structured(await client.call_tool("search_tools", {"query": "write a file", "limit": 50}))
            with pytest.raises(MCPError, match="Unknown tool: fs_write_file"):
                await client.call_tool("fs_write_file", write)
            with pytest.raises(MCPError, match="Unknown tool: fs_write_file"):
                await client.call_tool("call_tool", {"name": "fs_write_file", "arguments": write})
            read = await client.call_tool("fs_read_text_file", {"path": str(notes)})
    catalog = [name for name in listed if name not in ("search_tools", "call_tool")]
    assert "fs_read_text_file" in catalog
    assert "fs_write_file" not in listed
    assert all(listed[name].read_only_hint is True for name in catalog)  # type: ignore[union-attr]
    assert all(t["annotations"]["readOnlyHint"] is True for t in found["tools"])
    assert read.is_error is False
    assert notes.read_text() == "keep me\n"


async def test_a_view_no_config_defines_answers_404(gateway: RunningGateway) -> None:
    import httpx

    async with httpx.AsyncClient(headers=gateway.headers, timeout=30) as http:
        answer = await http.post(f"{gateway.mcp_url}/nothing", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert answer.status_code == 404
    assert "nothing" in answer.text


async def test_serve_view_read_only_over_stdio_lists_and_calls_read_only_tools_only(config: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--no-record", "--view", "read-only"],
        env=child_env(),
    )
    with anyio.fail_after(180):
        async with Client(params, mode="legacy") as client:
            listed = {t.name: t.annotations for t in (await every_tool(client))}
            with pytest.raises(MCPError, match="Unknown tool: memory_delete_entities"):
                await client.call_tool("memory_delete_entities", {"entityNames": ["x"]})
            now = await client.call_tool("time_get_current_time", {"timezone": "UTC"})
    assert "memory_read_graph" in listed
    assert "memory_delete_entities" not in listed
    assert all(hints is not None and hints.read_only_hint is True for name, hints in listed.items() if name not in
               ("search_tools", "call_tool"))  # fmt: skip
    assert now.is_error is False


async def test_a_session_opened_on_the_read_only_view_cannot_be_used_on_the_whole_catalogs_endpoint(
    gateway: RunningGateway,
) -> None:
    import httpx

    headers = {**gateway.headers, "Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    async with httpx.AsyncClient(timeout=60) as http:
        opened = await http.post(f"{gateway.mcp_url}/read-only", headers=headers, json=hello)
        session = {**headers, "Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-11-25"}
        await http.post(
            f"{gateway.mcp_url}/read-only",
            headers=session,
            json={"jsonrpc": "2.0", "method": "notifications/initialized"},
        )
        there = await http.post(f"{gateway.mcp_url}/read-only", headers=session, json=listing)
        elsewhere = await http.post(gateway.mcp_url, headers=session, json=listing)
    assert "fs_read_text_file" in there.text
    assert "fs_write_file" not in there.text
    assert "fs_write_file" not in elsewhere.text
    assert "this session was opened on /mcp/read-only, not /mcp" in elsewhere.text


async def test_call_tool_judges_a_call_by_its_arguments_as_a_direct_call_does(tmp_path: Path) -> None:
    import sqlite3

    from real_servers import mcp1_server

    shop = tmp_path / "shop.db"
    with sqlite3.connect(shop) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT)")
        db.execute("INSERT INTO orders (item) VALUES ('tea')")
    command = mcp1_server("mcp-server-sqlite")
    config = tmp_path / "hintgate.json"
    servers = {"db": {"command": command[0], "args": ["--db-path", str(shop)]}}
    config.write_text(json.dumps({"mcpServers": servers, "policy": {"mode": "default"}, "search": {"mode": "always"}}))
    person = Person("deny")
    with anyio.fail_after(120), running_gateway("--config", str(config), "--no-record") as running:
        async with Client(running.mcp_transport(), mode="legacy", elicitation_callback=person) as client:
            read = await client.call_tool(
                "call_tool", {"name": "db_read_query", "arguments": {"query": "SELECT * FROM orders"}}
            )
            assert person.asked == []
            dropped = await client.call_tool(
                "call_tool", {"name": "db_read_query", "arguments": {"query": "DROP TABLE orders"}}
            )
    assert read.is_error is False
    assert "tea" in read.content[0].text  # type: ignore[union-attr]
    assert dropped.is_error is True
    [question] = person.asked
    assert "What this call does (judged from its arguments): DROP TABLE orders; destructive" in question
    with sqlite3.connect(shop) as db:
        assert db.execute("SELECT count(*) FROM orders").fetchone() == (1,)


async def test_the_python_registrys_categories_and_tags_reach_clients_the_api_and_the_catalog_page(
    gateway: RunningGateway,
) -> None:
    import httpx

    with anyio.fail_after(120):
        async with Client(gateway.mcp_transport(), mode="legacy") as client:
            listed = {t.name: t for t in await every_tool(client)}
            found = structured(await client.call_tool("search_tools", {"query": "notes", "tags": ["search"]}))
        async with httpx.AsyncClient(headers=gateway.headers, timeout=60) as http:
            api = (await http.get(f"{gateway.base_url}/api/tools", params={"category": "notes"})).json()
            page = (await http.get(f"{gateway.base_url}/", params={"category": "notes"})).text
    meta = listed["notes_search_notes"].meta or {}
    assert meta["hintgate/category"] == "notes"
    assert meta["hintgate/tags"] == ["search"]
    assert [t["name"] for t in found["tools"]] == ["notes_search_notes"]
    assert sorted(t["name"] for t in api) == ["notes_add_note", "notes_search_notes"]
    assert 'data-tool="notes_search_notes"' in page
    assert 'data-tool="notes_explode"' not in page
    assert '<a class="category" href="/?category=notes">notes</a>' in page
