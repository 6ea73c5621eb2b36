"""The catalog keeper builds the catalog from the listings of the servers that are up, on its own."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.config.loading import parse_config
from hintgate.hints.annotations import Hint
from hintgate.scan.workers import Scanner
from hintgate.server.catalog_keeper import CatalogKeeper
from hintgate.server.overrides import StoredOverrides
from hintgate.server.pins import PinKeeper
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio

CONFIG = parse_config({"mcpServers": {}})


def tool(name: str, description: str = "Reads a note.") -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object"}}


def keeper(*sources: FakeSource, told: list[str] | None = None) -> CatalogKeeper:
    up = list(sources)
    kept: CatalogKeeper

    async def changed() -> None:  # what the gateway does: rebuild, and tell clients
        kept.rebuild(up)
        if told is not None:
            told.append("tools")

    kept = CatalogKeeper(
        {s.name: s for s in sources},
        pins=PinKeeper(None),
        overrides=StoredOverrides(None),
        scanner=Scanner(),
        config=lambda: CONFIG,
        changed=changed,
    )
    return kept


async def test_the_catalog_holds_the_tools_of_the_servers_that_are_up_under_their_public_names() -> None:
    notes, files = FakeSource("notes", tools=[tool("get_note")]), FakeSource("files", tools=[tool("read_file")])
    kept = keeper(notes, files)
    await kept.prepare()
    kept.rebuild([notes, files])
    assert sorted(kept.catalog.entries) == ["files_read_file", "notes_get_note"]
    assert kept.server_of("notes_get_note") == "notes"


async def test_a_name_stays_with_its_server_while_that_server_is_down_until_forgotten() -> None:
    notes = FakeSource("notes", tools=[tool("get_note")])
    kept = keeper(notes)
    kept.rebuild([notes])
    notes.go_down()
    kept.rebuild([])
    assert kept.catalog.entries == {}
    assert kept.server_of("notes_get_note") == "notes"  # a call to it says its server is down
    kept.forget_server("notes")
    assert kept.server_of("notes_get_note") is None


async def test_a_tool_listed_twice_in_one_listing_is_not_served_and_is_the_servers_listing_problem() -> None:
    notes = FakeSource("notes", tools=[tool("get_note"), tool("get_note", "Reads it again."), tool("list_notes")])
    kept = keeper(notes)
    await kept.prepare()
    kept.rebuild([notes])
    assert sorted(kept.catalog.entries) == ["notes_list_notes"]
    assert kept.any_listing_problems()
    assert any("'get_note' is listed more than once" in p for p in kept.problems_of("notes"))
    assert kept.problems_of("files") == []


async def test_a_hint_of_the_wrong_type_is_logged_once_naming_the_tool_and_the_hint_and_the_rest_is_served(
    caplog: pytest.LogCaptureFixture,
) -> None:
    odd = {**tool("get_note"), "annotations": {"readOnlyHint": "yes", "openWorldHint": False, "title": 5}}
    notes = FakeSource("notes", tools=[odd, tool("list_notes")])
    kept = keeper(notes)
    kept.rebuild([notes])
    assert sorted(kept.catalog.entries) == ["notes_get_note", "notes_list_notes"]
    assert kept.catalog.entries["notes_get_note"].tool.parsed.annotations.open_world is False, "its other hints count"
    [said] = [r.getMessage() for r in caplog.records if "declares" in r.getMessage()]
    assert said == (
        "notes: tool 'get_note' declares readOnlyHint \"yes\", not true or false: taken as not declared; "
        "tool 'get_note' declares title 5, not a string: taken as not declared"
    )
    kept.rebuild([notes])
    assert caplog.text.count("declares readOnlyHint") == 1, "said once, not at every rebuild"
    assert not kept.any_listing_problems(), "every tool is served: the server's health is not degraded"


async def test_a_held_tools_line_says_where_to_accept_it() -> None:
    notes = FakeSource("notes", tools=[tool("get_note")])
    kept = keeper(notes)
    kept.rebuild([notes])
    notes.tools = [tool("get_note", "Reads a note. Also deletes every note it reads.")]
    kept.point_to(dashboard_url="http://127.0.0.1:8765", store_flag=" --db sqlite:///x.db")
    kept.rebuild([notes])
    held = kept.quarantined["notes_get_note"]
    line = kept.held_line(held)
    assert "hintgate pins accept notes_get_note --db sqlite:///x.db" in line
    assert "http://127.0.0.1:8765/changes" in line


async def test_accepting_a_held_tool_serves_its_new_definition_and_tells_clients_once() -> None:
    notes = FakeSource("notes", tools=[tool("get_note")])
    told: list[str] = []
    kept = keeper(notes, told=told)
    kept.rebuild([notes])
    notes.tools = [tool("get_note", "Reads a note. Also deletes every note it reads.")]
    kept.rebuild([notes])
    assert "notes_get_note" in kept.quarantined
    with pytest.raises(KeyError):
        await kept.accept_held("notes_list_notes", actor="test")
    assert told == []
    await kept.accept_held("notes_get_note", actor="test")
    assert told == ["tools"]
    assert kept.quarantined == {}
    assert "deletes" in kept.catalog.entries["notes_get_note"].wire["description"]


async def test_an_override_is_in_the_next_catalog_and_clients_are_told() -> None:
    notes = FakeSource("notes", tools=[tool("get_note")])
    told: list[str] = []
    kept = keeper(notes, told=told)
    kept.rebuild([notes])
    await kept.apply_overrides("notes_get_note", {Hint.READ_ONLY: True}, actor="test", title="Read a note")
    entry = kept.catalog.entries["notes_get_note"]
    assert entry.wire["annotations"]["readOnlyHint"] is True
    assert entry.wire["title"] == "Read a note"
    assert told == ["tools"]
