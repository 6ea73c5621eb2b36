"""`PUT /api/tools/{name}/confirm`: how often a tool or a glob of tools asks, set live, kept in the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
import pytest
from bs4 import BeautifulSoup
from mcp import Client

from hintgate.config.model import Trust
from hintgate.server.face import build_server

if TYPE_CHECKING:
    from conftest import Dashboard, OpenDashboard

pytestmark = pytest.mark.anyio

WRITE = {"X-Hintgate-Request": "1"}
ACCEPT_EDITS = {"mode": "acceptEdits", "approvalTimeout": 10}


class Person:
    """Answers every question the same way and counts them."""

    def __init__(self, answer: str = "approve-once") -> None:
        self.answer = answer
        self.asked = 0

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked += 1
        return types.ElicitResult(action="accept", content={"decision": self.answer})


@asynccontextmanager
async def client_of(dash: Dashboard, person: Person) -> AsyncIterator[Client]:
    with anyio.fail_after(30):
        async with Client(build_server(dash.gateway), mode="legacy", elicitation_callback=person) as client:
            yield client


async def put(dash: Dashboard, name: str, confirm: str | None, status: int = 200) -> dict[str, Any]:
    response = await dash.client.put(f"/api/tools/{name}/confirm", json={"confirm": confirm}, headers=WRITE)
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_confirm_always_makes_an_additive_write_ask_every_time_until_it_is_cleared(
    open_dashboard: OpenDashboard,
) -> None:
    person = Person()
    # A trusted server's word that the write is additive is what lets accept-edits run it unasked.
    async with (
        open_dashboard(policy=ACCEPT_EDITS, notes_trust=Trust.TRUSTED) as dash,
        client_of(dash, person) as client,
    ):
        await client.call_tool("notes_create_note", {"title": "a"})
        assert person.asked == 0  # accept-edits runs additive writes
        body = await put(dash, "notes_create_note", "always")
        assert body == {"tool": "notes_create_note", "confirm": "always", "matches": ["notes_create_note"]}
        for _ in range(2):
            result = await client.call_tool("notes_create_note", {"title": "a"})
            assert result.is_error is False
        assert person.asked == 2
        cleared = await put(dash, "notes_create_note", None)
        await client.call_tool("notes_create_note", {"title": "a"})
    assert cleared["confirm"] is None
    assert person.asked == 2


async def test_confirm_first_asks_once_per_session(open_dashboard: OpenDashboard) -> None:
    person = Person()
    async with open_dashboard(policy=ACCEPT_EDITS) as dash:
        await put(dash, "notes_create_note", "first")
        async with client_of(dash, person) as client:
            for title in ("a", "b", "c"):
                await client.call_tool("notes_create_note", {"title": title})
    assert person.asked == 1


async def test_confirm_never_lets_a_destructive_tool_run_unasked_and_the_policy_lists_it_first(
    open_dashboard: OpenDashboard,
) -> None:
    person = Person()
    async with open_dashboard(policy=ACCEPT_EDITS) as dash:
        await put(dash, "notes_delete_note", "never")
        async with client_of(dash, person) as client:
            result = await client.call_tool("notes_delete_note", {"id": 1})
            assert (result.is_error, person.asked) == (False, 0)
        policy = (await dash.client.get("/api/policy")).json()
    assert policy["rules"][0] == "allow tool=notes_delete_note confirm=never (set through the API or dashboard)"


async def test_a_glob_covers_every_tool_it_matches_and_a_config_deny_still_denies(
    open_dashboard: OpenDashboard,
) -> None:
    person = Person()
    policy = {**ACCEPT_EDITS, "rules": [{"deny": {"tool": "notes_wipe"}}, {"allow": {"tool": "notes_get_note"}}]}
    async with open_dashboard(policy=policy) as dash:
        body = await put(dash, "notes_*", "never")
        async with client_of(dash, person) as client:
            wiped = await client.call_tool("notes_wipe", {})
            deleted = await client.call_tool("notes_delete_note", {"id": 1})
        listed = (await dash.client.get("/api/confirms")).json()
    assert body["matches"] == ["notes_create_note", "notes_delete_note", "notes_get_note", "notes_wipe"]
    assert listed == [body]
    assert wiped.is_error is True  # the config's tool-level deny beats the stored allow
    assert "Denied by rule deny tool=notes_wipe" in wiped.content[0].text
    assert deleted.is_error is False
    assert person.asked == 0


@pytest.mark.parametrize(
    ("name", "body", "status", "detail"),
    [
        ("notes_nope", {"confirm": "always"}, 404, "no tool named 'notes_nope'"),
        ("zzz_*", {"confirm": "first"}, 404, "the glob 'zzz_*' matches no tool"),
        ("notes_wipe", {"confirm": "sometimes"}, 422, "confirm"),
        ("notes_wipe", {}, 422, "confirm"),
        ("notes_wipe", {"confirm": "never", "extra": 1}, 422, "extra"),
    ],
)
async def test_bad_confirm_settings_are_refused_and_say_what_was_wrong(
    open_dashboard: OpenDashboard, name: str, body: dict[str, Any], status: int, detail: str
) -> None:
    async with open_dashboard() as dash:
        response = await dash.client.put(f"/api/tools/{name}/confirm", json=body, headers=WRITE)
        listed = (await dash.client.get("/api/confirms")).json()
    assert response.status_code == status
    assert detail in response.json()["detail"]
    assert listed == []


async def test_a_confirm_setting_is_kept_in_the_store_and_applied_by_the_next_gateway(
    open_dashboard: OpenDashboard,
) -> None:
    async with open_dashboard(policy=ACCEPT_EDITS) as dash:
        await put(dash, "notes_create_note", "always")
    person = Person()
    async with open_dashboard(policy=ACCEPT_EDITS) as dash:
        listed = (await dash.client.get("/api/confirms")).json()
        async with client_of(dash, person) as client:
            await client.call_tool("notes_create_note", {"title": "a"})
        assert dash.store is not None
        stored = await dash.store.overrides.confirms()
    assert [row["confirm"] for row in listed] == ["always"]
    assert (stored[0]["tool"], stored[0]["updated_by"]) == ("notes_create_note", "local")
    assert person.asked == 1


async def test_the_tool_page_offers_the_confirm_choices_with_the_stored_one_checked(
    open_dashboard: OpenDashboard,
) -> None:
    async with open_dashboard() as dash:
        await put(dash, "notes_create_note", "first")
        response = await dash.client.get("/tools/notes_create_note")
    soup = BeautifulSoup(response.text, "html.parser")
    form = soup.select_one("form#confirm-editor")
    assert form is not None
    assert form["hx-put"] == "/api/tools/notes_create_note/confirm"
    choices = {str(i["value"]): i.has_attr("checked") for i in form.select("input[type=radio][name=confirm]")}
    assert choices == {"inherit": False, "first": True, "always": False, "never": False}
