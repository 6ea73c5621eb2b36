"""search_tools, call_tool and views in a gateway: what each client is listed, finds and may call.

In-process gateways over fake sources (the end-to-end tests over real servers are in
tests/server/test_search_end_to_end.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from tests.asking import Person

from hintgate.config.loading import parse_config
from hintgate.hints.trust import Trust
from hintgate.outcome import CallOutcome
from hintgate.server.face import build_server
from hintgate.server.gateway import Gateway
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]


def filler(n: int) -> list[dict[str, Any]]:
    """`n` read-only tools about nothing the tests look for."""
    return [
        {
            "name": f"filler_{i}",
            "description": f"Report the {WORDS[i % 10]} {WORDS[(i // 10) % 10]} figures.",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True, "openWorldHint": False},
        }
        for i in range(n)
    ]


FILES = [
    {
        "name": "read_file",
        "description": "Read the complete contents of a file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "delete_file",
        "description": "Delete a file for good.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "annotations": {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False},
    },
    {
        "name": "write_file",
        "description": "Write a new file with the given contents.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}},
        "annotations": {"readOnlyHint": False, "destructiveHint": False, "openWorldHint": False},
    },
]


def files_source(extra: int = 60) -> FakeSource:
    handlers = {t["name"]: (lambda args, n=t["name"]: f"ran {n}") for t in FILES}
    return FakeSource("fs", tools=[*FILES, *filler(extra)], handlers=handlers, trust=Trust.TRUSTED)


def config(**sections: Any) -> Any:
    return parse_config({"mcpServers": {}, **sections})


class Calls:
    """Remembers every call outcome the pipeline reports."""

    def __init__(self) -> None:
        self.outcomes: list[CallOutcome] = []

    def call_finished(self, outcome: CallOutcome) -> None:
        self.outcomes.append(outcome)


async def listed(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def search(client: Client, **arguments: Any) -> list[dict[str, Any]]:
    result = await client.call_tool("search_tools", arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    found: list[dict[str, Any]] = result.structured_content["tools"]
    return found


def connect(g: Gateway) -> Client:
    """A handshake-era client whose person denies whatever it is asked (no test waits for a timeout)."""
    return Client(build_server(g), mode="legacy", elicitation_callback=Person("deny"))


def gateway(*sources: FakeSource, view: str | None = None, **sections: Any) -> Gateway:
    made = Gateway(config(**sections), sources={s.name: s for s in sources})
    made.stdio_view = view
    return made


async def test_auto_lists_search_and_call_beside_a_catalog_of_more_than_50_tools_only() -> None:
    with anyio.fail_after(30):
        async with gateway(files_source(47)) as small, connect(small) as client:
            few = await listed(client)
        async with gateway(files_source(48)) as large, connect(large) as client:
            many = await listed(client)
    assert len(few) == 50
    assert "search_tools" not in few
    assert many[-2:] == ["search_tools", "call_tool"]
    assert len(many) == 53


async def test_only_lists_the_two_tools_and_the_pinned_ones_and_off_lists_neither() -> None:
    only = {"search": {"mode": "only", "alwaysList": ["fs_read_*"]}}
    with anyio.fail_after(30):
        async with gateway(files_source(5), **only) as g, connect(g) as client:
            shown = await listed(client)
            direct = await client.call_tool("fs_read_file", {"path": "a"})
        async with gateway(files_source(80), search={"mode": "off"}) as g, connect(g) as client:
            off = await listed(client)
            with pytest.raises(MCPError, match="Unknown tool: search_tools"):
                await client.call_tool("search_tools", {"query": "file"})
    assert shown == ["search_tools", "call_tool", "fs_read_file"]
    assert not direct.is_error  # hidden from the list, not from the client that knows its name
    assert "search_tools" not in off


async def test_an_upstream_search_tools_keeps_its_name_and_the_gateways_steps_aside() -> None:
    upstream = FakeSource(
        "x",
        prefix="",
        tools=[{"name": "search_tools", "description": "The server's own search.", "inputSchema": {"type": "object"}}],
        handlers={"search_tools": lambda args: "the upstream answered"},
        trust=Trust.TRUSTED,
    )
    with anyio.fail_after(30):
        async with gateway(upstream, files_source(), search={"mode": "always"}) as g, connect(g) as client:
            names = await listed(client)
            theirs = await client.call_tool("search_tools", {})
            ours = await client.call_tool("hintgate_search_tools", {"query": "read a file"})
    assert names[-2:] == ["hintgate_search_tools", "call_tool"]
    assert theirs.content[0].text == "the upstream answered"  # type: ignore[union-attr]
    assert ours.structured_content is not None
    assert ours.structured_content["tools"][0]["name"] == "fs_read_file"


async def test_search_answers_public_names_best_first_that_tools_call_accepts() -> None:
    with anyio.fail_after(30):
        async with gateway(files_source()) as g, connect(g) as client:
            found = await search(client, query="remove the file from disk for good", limit=2)
            called = await client.call_tool(found[0]["name"], {"path": "x"})
    assert found[0]["name"] == "fs_delete_file"
    assert found[0]["server"] == "fs"
    assert found[0]["annotations"]["destructiveHint"] is True
    assert found[0]["score"] > found[1]["score"] > 0
    assert called.is_error  # it asks, and the test's client answers no questions


async def test_read_only_search_never_returns_a_tool_that_is_not_read_only() -> None:
    with anyio.fail_after(30):
        async with gateway(files_source()) as g, connect(g) as client:
            writes = await search(client, query="delete write file", limit=50)
            reads = await search(client, query="delete write file", limit=50, readOnly=True)
            destructive = await search(client, query="file", tier="destructive")
            by_server = await search(client, query="file", server="nobody")
    assert {t["name"] for t in writes} >= {"fs_delete_file", "fs_write_file"}
    assert reads[0]["name"] == "fs_read_file"
    assert {"fs_delete_file", "fs_write_file"}.isdisjoint(t["name"] for t in reads)
    assert all(t["annotations"]["readOnlyHint"] is True for t in reads)
    assert [t["name"] for t in destructive] == ["fs_delete_file"]
    assert by_server == []


async def test_a_bad_search_is_a_tool_error_naming_the_argument() -> None:
    with anyio.fail_after(30):
        async with gateway(files_source()) as g, connect(g) as client:
            result = await client.call_tool("search_tools", {"query": "file", "limit": 500})
    assert result.is_error
    assert "arguments.limit" in result.content[0].text  # type: ignore[union-attr]


async def test_call_tool_asks_as_the_called_tool_would_and_is_recorded_as_it() -> None:
    person = Person("deny")
    calls = Calls()
    source = files_source()
    with anyio.fail_after(30):
        async with gateway(source) as g:
            g.calls.observers.append(calls)
            async with Client(build_server(g), mode="legacy", elicitation_callback=person) as client:
                denied = await client.call_tool("call_tool", {"name": "fs_delete_file", "arguments": {"path": "a"}})
                person.decision = "approve-once"
                approved = await client.call_tool("call_tool", {"name": "fs_delete_file", "arguments": {"path": "a"}})
                read = await client.call_tool("call_tool", {"name": "fs_read_file", "arguments": {"path": "a"}})
    assert denied.is_error
    assert len(person.asked) == 2  # the destructive call asked both times; the read did not
    assert approved.content[0].text == "ran delete_file"  # type: ignore[union-attr]
    assert read.content[0].text == "ran read_file"  # type: ignore[union-attr]
    assert source.calls == [("delete_file", {"path": "a"}), ("read_file", {"path": "a"})]
    assert [(o.entry.name, o.arguments, o.verdict) for o in calls.outcomes] == [
        ("fs_delete_file", {"path": "a"}, "denied"),
        ("fs_delete_file", {"path": "a"}, "approved"),
        ("fs_read_file", {"path": "a"}, "allow"),
    ]


async def test_call_tool_of_an_unknown_tool_or_bad_arguments_says_what_is_wrong() -> None:
    with anyio.fail_after(30):
        async with gateway(files_source()) as g, connect(g) as client:
            with pytest.raises(MCPError, match="Unknown tool: fs_nothing"):
                await client.call_tool("call_tool", {"name": "fs_nothing"})
            with pytest.raises(MCPError, match="Unknown tool: search_tools"):
                await client.call_tool("call_tool", {"name": "search_tools", "arguments": {"query": "x"}})
            bad = await client.call_tool("call_tool", {"name": "fs_read_file", "arguments": [1]})
    assert bad.is_error
    assert "call_tool: arguments.arguments" in bad.content[0].text  # type: ignore[union-attr]


async def test_the_read_only_view_lists_searches_and_calls_read_only_tools_only() -> None:
    source = files_source()
    with anyio.fail_after(30):
        async with gateway(source, view="read-only") as g, connect(g) as client:
            names = await listed(client)
            found = await search(client, query="delete a file", limit=50)
            with pytest.raises(MCPError, match="Unknown tool: fs_delete_file"):
                await client.call_tool("fs_delete_file", {"path": "a"})
            with pytest.raises(MCPError, match="Unknown tool: fs_write_file"):
                await client.call_tool("call_tool", {"name": "fs_write_file", "arguments": {"path": "a"}})
            read = await client.call_tool("call_tool", {"name": "fs_read_file", "arguments": {"path": "a"}})
            sessions = [s.view for s in g.sessions]
            call_hints = next(t for t in (await client.list_tools()).tools if t.name == "call_tool").annotations
    assert "fs_delete_file" not in names
    assert "fs_write_file" not in names
    assert "fs_read_file" in names
    assert "fs_delete_file" not in [t["name"] for t in found]
    assert read.content[0].text == "ran read_file"  # type: ignore[union-attr]
    assert source.calls == [("read_file", {"path": "a"})]
    assert sessions == ["read-only"]
    assert call_hints is not None
    assert call_hints.read_only_hint is True  # everything it can reach here only reads


async def test_a_configured_view_filters_by_server_and_tool_glob() -> None:
    other = FakeSource("notes", tools=filler(3), trust=Trust.TRUSTED)
    views = {"views": {"files": {"servers": ["fs"], "tools": ["fs_*_file"]}}}
    with anyio.fail_after(30):
        async with gateway(files_source(), other, view="files", **views) as g, connect(g) as client:
            names = await listed(client)
    assert names == ["fs_read_file", "fs_delete_file", "fs_write_file"]


async def test_search_ranks_only_what_a_persons_deny_rules_leave_them() -> None:
    from hintgate.discovery.views import View
    from hintgate.policy.principal import Principal, PrincipalKind

    policy = {
        "identity": {"issuer": "https://issuer.example", "audience": "https://gateway.example/mcp"},
        "policy": {"rules": [{"deny": {"tool": "fs_delete_file", "user": "mallory@example.com"}}]},
    }
    with anyio.fail_after(30):
        async with gateway(files_source(), **policy) as g:
            mallory = Principal("mallory@example.com", PrincipalKind.USER)
            listing = g.discovery.listing(g.catalog, g.calls.rules, None, mallory)
            answer = await g.discovery.search(g.catalog, listing, {"query": "delete a file", "limit": 50})
            in_view = g.discovery.listing(g.catalog, g.calls.rules, View("files", servers=frozenset({"fs"})), mallory)
    assert "fs_delete_file" not in listing.names
    assert "fs_delete_file" not in [t["name"] for t in answer["structuredContent"]["tools"]]
    assert {"fs_read_file", "fs_write_file"} <= in_view.names
    assert "fs_delete_file" not in in_view.names  # a person's deny rule holds inside a view too


async def test_the_index_follows_the_catalog_when_a_server_lists_new_tools() -> None:
    source = files_source()
    with anyio.fail_after(30):
        async with gateway(source) as g, connect(g) as client:
            before = await search(client, query="rename a file")
            source.tools.append(
                {"name": "rename_file", "description": "Rename a file.", "inputSchema": {"type": "object"}}
            )
            await g._on_change("fs", "tools")
            after = await search(client, query="rename a file")
    assert "fs_rename_file" not in [t["name"] for t in before]
    assert after[0]["name"] == "fs_rename_file"


def _search_names(answer: Mapping[str, Any]) -> list[str]:
    return [t["name"] for t in answer["structuredContent"]["tools"]]


async def test_a_catalog_is_indexed_off_the_event_loop_and_every_search_sees_the_same_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from hintgate.server import discovery

    source = files_source(60)
    built: list[object] = []
    real = asyncio.to_thread

    async def spy(function: Any, *args: Any) -> Any:
        built.append(function)
        return await real(function, *args)

    monkeypatch.setattr(discovery.asyncio, "to_thread", spy)
    answers: list[Mapping[str, Any]] = []
    with anyio.fail_after(60):
        async with gateway(source) as g:
            listing, _ = g.listing(None)

            async def one() -> None:
                answers.append(await g.discovery.search(g.catalog, listing, {"query": "delete file"}))

            async with anyio.create_task_group() as tg:
                for _ in range(3):
                    tg.start_soon(one)
    # asyncio.to_thread is one function for all: the gateway readies its catalog on worker threads too.
    indexing = [f for f in built if getattr(f, "__module__", None) == discovery.__name__]
    assert len(indexing) == 1  # built once, in a worker thread, for the three searches
    assert [_search_names(a)[0] for a in answers] == ["fs_delete_file"] * 3


async def test_a_views_session_and_the_approvals_it_waits_for_say_which_view(tmp_path: Any) -> None:
    from hintgate.policy.approvals import Answer
    from hintgate.store import RecordingSettings, Store
    from hintgate.web.approvals_api import Approval

    views = {"views": {"writes": {"tiers": ["destructive"]}}, "policy": {"askVia": "queue", "approvalTimeout": 30}}
    store = await Store.open(f"sqlite:///{tmp_path / 'h.db'}", RecordingSettings(commit_interval=0.01), replica="r")
    try:
        made = Gateway(config(**views), sources={"fs": files_source()}, store=store)
        made.stdio_view = "writes"
        seen: list[str | None] = []
        with anyio.fail_after(30):
            async with made as g, connect(g) as client:

                async def answer_when_asked() -> None:
                    while not g.calls.approvals.pending():
                        await anyio.sleep(0.01)
                    [waiting] = g.calls.approvals.pending()
                    seen.append(waiting.view)
                    seen.append(Approval.model_validate(waiting).view)  # as the REST API shows it
                    # the shared queue's row is written after the wait is pending: poll it, bounded above
                    while not (listed := await g.calls.approvals.listing()):
                        await anyio.sleep(0.01)
                    seen.extend(p.view for p in listed)  # as the shared queue keeps it
                    await g.calls.approvals.respond(waiting.id, Answer.DENY, actor="test", via="api")

                async with anyio.create_task_group() as tg:
                    tg.start_soon(answer_when_asked)
                    denied = await client.call_tool("fs_delete_file", {"path": "a"})
            await store.flush()
            [session] = await store.recent_sessions(5)
    finally:
        await store.close()
    assert denied.is_error
    assert seen == ["writes", "writes", "writes"]
    assert session["view"] == "writes"


async def test_the_cost_of_tools_list_in_each_mode_is_its_json_in_bytes_and_estimated_tokens() -> None:
    import json

    from hintgate.discovery.served import SearchMode

    pinned = {"search": {"mode": "only", "alwaysList": ["fs_read_file"]}}
    with anyio.fail_after(30):
        async with gateway(files_source(), **pinned) as g:
            costs = {c.mode: c for c in g.discovery.costs(g.catalog)}
            catalog = list(g.catalog.wire)
    off = json.dumps({"tools": catalog}, separators=(",", ":"), ensure_ascii=False)
    assert costs[SearchMode.OFF].bytes == len(off.encode())
    assert costs[SearchMode.OFF].tools == len(catalog)
    assert costs[SearchMode.ALWAYS].tools == costs[SearchMode.AUTO].tools == len(catalog) + 2
    assert costs[SearchMode.ONLY].tools == 3
    assert [m for m, c in costs.items() if c.current] == [SearchMode.ONLY]
    assert costs[SearchMode.ONLY].tokens < costs[SearchMode.OFF].tokens < costs[SearchMode.ALWAYS].tokens
