"""Operators' controls in a real browser (Chromium, as in test_browser): per-tool confirmation, signing in."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from playwright.async_api import expect
from test_auth import serving
from test_browser import Served, browser_page, mcp_client, screenshot, serve, text_of

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
