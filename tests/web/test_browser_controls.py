"""Operators' pages in a real browser (Chromium, as in test_browser): per-tool confirmation, signing in, long lists."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from playwright.async_api import expect
from test_auth import serving
from test_browser import Served, browser_page, mcp_client, screenshot, serve, text_of

from hintgate.web.pages import CALLS_PER_PAGE

pytestmark = pytest.mark.anyio


@pytest.fixture
def accept_edits(tmp_path: Path) -> Iterator[Served]:
    """The demo behind a gateway in accept-edits mode, asking in the dashboard's queue."""
    policy = {"mode": "acceptEdits", "askVia": "queue", "approvalTimeout": 30}
    with serve(tmp_path, policy) as running:
        yield running


async def test_confirm_always_chosen_on_the_tool_page_makes_the_next_call_wait_for_a_person(
    accept_edits: Served,
) -> None:
    async with mcp_client(accept_edits) as client, browser_page() as page:
        await page.goto(accept_edits.base + "/tools/notes_create_note")
        await expect(page.locator("#confirm-inherit")).to_be_checked()
        await page.check("#confirm-always")
        await page.click("#save-confirm")
        await expect(page.locator("#confirm-feedback")).to_contain_text("Saved")
        await screenshot(page, "tool-confirm")

        call = asyncio.ensure_future(client.call_tool("notes_create_note", {"title": "t", "body": "b"}))
        try:
            await page.goto(accept_edits.base + "/approvals")
            approval = page.locator('li.approval[data-tool="notes_create_note"]')
            await expect(approval).to_have_count(1)
            await expect(approval).to_contain_text("confirm=always")
            await approval.get_by_role("button", name="Deny").click()
            await expect(approval).to_have_count(0)
            with anyio.fail_after(30):
                result = await call
        finally:
            call.cancel()
        assert result.is_error is True
        assert "denied" in text_of(result)

        await page.goto(accept_edits.base + "/tools/notes_create_note")
        await expect(page.locator("#confirm-always")).to_be_checked()
        await page.check("#confirm-inherit")
        await page.click("#save-confirm")
        await expect(page.locator("#confirm-feedback")).to_contain_text("Saved")
        response = await page.request.get(accept_edits.base + "/api/confirms")
        assert await response.json() == []
        with anyio.fail_after(30):
            again = await client.call_tool("notes_create_note", {"title": "t", "body": "b"})
    assert again.is_error is not True


async def test_beyond_loopback_a_browser_signs_in_with_the_token_and_lands_on_the_page_it_asked_for() -> None:
    token = "s3cret-token-for-the-browser-test"
    async with serving(token) as base, browser_page() as page:
        await page.goto(base + "/tools/notes_get_note")
        await expect(page).to_have_title("Sign in · hintgate")
        await screenshot(page, "login")
        await page.fill("#login-token", "not-the-token")
        await page.click("#sign-in")
        await expect(page.locator("[role=alert]")).to_contain_text("not this gateway's")
        await page.fill("#login-token", token)
        await page.press("#login-token", "Enter")
        await expect(page).to_have_url(base + "/tools/notes_get_note")
        await expect(page.locator("h1")).to_have_text("Get note")
        cookies = await page.context.cookies()
    [cookie] = [c for c in cookies if c["name"] == "hintgate_token"]
    assert (cookie["httpOnly"], cookie["sameSite"], cookie["secure"]) == (True, "Strict", False)


async def _recorded_calls(base: str, count: int) -> None:
    """Wait (bounded) until the store holds `count` calls."""
    async with httpx.AsyncClient(base_url=base) as rest:
        with anyio.fail_after(30):
            while len((await rest.get("/api/calls", params={"limit": count})).json()) < count:
                await asyncio.sleep(0.05)


async def test_the_calls_page_is_paginated_and_its_dates_stay_on_one_line(tmp_path: Path) -> None:
    policy = {"rules": [{"allow": {"server": "notes", "tier": "read-only"}}]}
    with serve(tmp_path, policy) as running:
        async with mcp_client(running) as client:
            for number in range(CALLS_PER_PAGE + 5):
                await client.call_tool("notes_get_note", {"note_id": number % 3 + 1})
        await _recorded_calls(running.base, CALLS_PER_PAGE + 5)
        async with browser_page() as page:
            await page.goto(running.base + "/calls")
            rows = page.locator("tr.call")
            await expect(rows).to_have_count(CALLS_PER_PAGE)
            lines = await page.eval_on_selector_all(
                "tr.call td[data-label=Started] time", "times => times.map(t => t.getClientRects().length)"
            )
            assert set(lines) == {1}, "a date wraps at 1280 px"
            await page.set_viewport_size({"width": 390, "height": 900})
            height = await page.evaluate("document.documentElement.scrollHeight")
            print("height at 390", height)
            assert height < 12_000, f"the calls page is {height} px long at 390 px"
            await screenshot(page, "calls-paginated")
            await page.click("nav.pager >> text=Older calls")
            await expect(rows).to_have_count(5)
            await expect(page.locator("nav.pager a")).to_have_text(["Newer calls"])
