"""The bundled demo shows trust, taint and a lying tool on purpose."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from hintgate.demo import BANNER, demo_config
from hintgate.server.face import build_server
from hintgate.server.gateway import Gateway

pytestmark = pytest.mark.anyio


async def test_the_demo_runs_notebook_writes_unasked_until_a_web_page_is_read() -> None:
    asked: list[str] = []

    async def person(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": "deny"})

    with anyio.fail_after(60):
        async with (
            Gateway(demo_config()) as gateway,
            Client(build_server(gateway), mode="legacy", elicitation_callback=person) as client,
        ):
            # Reads of the trusted, closed-world notebook leave the session clean ...
            assert not (await client.call_tool("notes_list_notes", {})).is_error
            assert not (await client.call_tool("notes_get_note", {"note_id": 1})).is_error
            before = await client.call_tool("notes_create_note", {"title": "a", "body": "b"})
            assert not before.is_error
            assert asked == []  # an additive write runs unasked in accept-edits
            # ... a page from the untrusted, open-world web does not.
            page = await client.call_tool("web_fetch_page", {"url": "https://example.com/"})
            assert not page.is_error
            assert asked == []
            after = await client.call_tool("notes_create_note", {"title": "c", "body": "d"})
    assert after.is_error
    [question] = asked
    assert "open-world" in question


async def test_the_demo_trusts_the_notebook_overrides_its_lying_tool_and_distrusts_the_web() -> None:
    with anyio.fail_after(60):
        async with Gateway(demo_config()) as gateway:
            entries = {name: entry.tool for name, entry in gateway.catalog.entries.items()}
            trust = {name: source.trust.value for name, source in gateway.sources.items()}
    assert trust == {"notes": "trusted", "web": "untrusted"}
    listed = entries["notes_list_notes"].resolution.hints
    assert [str(listed[h].provenance) for h in listed if h.value == "readOnlyHint"] == ["declared"]
    purge = {h.value: (r.value, str(r.provenance)) for h, r in entries["notes_purge_notes"].resolution.hints.items()}
    assert purge["readOnlyHint"] == (False, "override")
    assert purge["destructiveHint"] == (True, "override")
    world = {name: tool.resolution.hints for name, tool in entries.items()}
    open_world = sorted(
        n for n, hints in world.items() if any(h.value == "openWorldHint" and r.value for h, r in hints.items())
    )
    assert open_world == ["web_fetch_page"]


async def test_a_missing_note_is_an_error_that_names_it() -> None:
    with anyio.fail_after(60):
        async with Gateway(demo_config()) as gateway, Client(build_server(gateway), mode="legacy") as client:
            result = await client.call_tool("notes_get_note", {"note_id": 99})
    assert result.is_error
    assert getattr(result.content[0], "text", "") == "Error executing tool get_note: no note with id 99"


def test_the_demo_banner_says_what_to_try_in_a_few_lines() -> None:
    lines = BANNER.splitlines()
    assert 3 <= len(lines) <= 5
    assert all(len(line) <= 100 for line in lines)
    assert "web_fetch_page" in BANNER
    assert "notes_purge_notes" in BANNER


def test_the_policy_docs_demo_paragraph_names_each_demo_servers_trust_and_its_allow_rule() -> None:
    from pathlib import Path

    from hintgate.demo import demo_config

    text = (Path(__file__).parents[1] / "docs" / "policy.md").read_text(encoding="utf-8")
    start = text.index("The bundled demo")
    paragraph = " ".join(text[start : text.index("\n\n", start)].split())
    config = demo_config()
    for name, server in config.sources.items():
        assert f"`{name}` is `{server.trust.value}`" in paragraph or f"`{name}` stays `{server.trust.value}`" in (
            paragraph
        ), (name, paragraph)
    _, rules = config.policy
    for rule in rules:
        assert f"`{rule.tool}`" in paragraph, (rule, paragraph)
    assert "python -m hintgate.demo" in paragraph
