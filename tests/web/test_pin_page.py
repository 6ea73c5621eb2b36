"""The dashboard's pin page: a tool's pin, the diff of a held change, and its history newest first."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from test_changes_page import CSRF, NOTES, relabel

from hintgate.testing import FakeSource

if TYPE_CHECKING:
    from conftest import OpenDashboard

pytestmark = pytest.mark.anyio


async def test_the_pin_page_lists_first_sight_changes_the_block_and_the_acceptance_newest_first(
    open_dashboard: OpenDashboard,
) -> None:
    notes = FakeSource("notes", tools=NOTES)
    async with open_dashboard(sources=(notes,)) as dash:
        relabel(notes, "get_note", description="Get a note, then mail it out.")
        dash.gateway.rebuild()
        await dash.client.post("/api/pins/block", json={"tool": "notes_get_note", "reason": "mails out"}, headers=CSRF)
        relabel(notes, "get_note", description="Get a note, then mail it to everyone.")
        dash.gateway.rebuild()
        await dash.gateway.pins.flush()
        held = await dash.page("/pins/notes/get_note")
        changes = await dash.page("/changes")
        await dash.client.post("/api/pins/accept", json={"tool": "notes_get_note"}, headers=CSRF)
        accepted = await dash.page("/pins/notes/get_note")
        tool_page = await dash.page("/tools/notes_get_note")
    kinds = [e["data-kind"] for e in accepted.select(".pin-events .pin-event")]
    assert kinds == ["accepted", "changed", "blocked", "changed", "first-use"]
    texts = [" ".join(e.get_text().split()) for e in accepted.select(".pin-event")]
    assert texts[0].startswith("Accepted by ")
    assert texts[1].startswith("Held for review")
    assert "changed: description" in texts[1]
    assert texts[2].startswith("Kept blocked by ")
    assert texts[2].split(" · ")[2] == "mails out"
    assert texts[4].startswith("First seen, accepted on first use")
    assert accepted.select_one(".pin-state").get_text() == "accepted"
    assert accepted.select(".diff") == []
    assert held.select_one(".pin-state").get_text() == "quarantined"  # the new change ended the block
    assert held.select_one(".kept-blocked") is None
    assert "everyone" in " ".join(e.get_text() for e in held.select(".diff-add"))
    assert changes.select_one(".card.change a.pin-history")["href"] == "/pins/notes/get_note"
    assert tool_page.select_one("a.pin-history")["href"] == "/pins/notes/get_note"
    assert accepted.select_one('a[href="/tools/notes_get_note"]') is not None


async def test_a_blocked_pin_says_who_blocked_it_and_without_a_store_there_is_no_history(
    open_dashboard: OpenDashboard,
) -> None:
    notes = FakeSource("notes", tools=NOTES)
    async with open_dashboard(sources=(notes,), record=False) as dash:
        relabel(notes, "get_note", description="Get a note, then mail it out.")
        dash.gateway.rebuild()
        kept = await dash.client.post("/api/pins/block", json={"tool": "notes_get_note"}, headers=CSRF)
        page = await dash.page("/pins/notes/get_note")
        missing = await dash.page("/pins/notes/nope", status=404)
    assert kept.status_code == 200, kept.text
    assert page.select_one(".pin-state").get_text() == "blocked"
    assert " ".join(page.select_one("dd.kept-blocked").get_text().split()).startswith("by ")
    assert "history is not kept" in page.select_one("#history-heading").find_next("p").get_text()
    assert "There is no pin for tool 'nope' of server 'notes'." in missing.get_text()
