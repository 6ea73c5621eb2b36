"""Keeping a held tool blocked and reading its pin history, in a real browser against `hintgate serve --http`."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.async_api import expect
from test_browser import browser_page, screenshot, serve_poisoned

pytestmark = pytest.mark.anyio


async def test_keep_blocked_moves_a_held_tool_to_the_blocked_list_and_its_pin_history_says_who(
    tmp_path: Path,
) -> None:
    with serve_poisoned(tmp_path) as running:
        async with browser_page() as page:
            await page.goto(running.base + "/changes")
            review = page.locator('.review .card.change[data-tool="p_add_numbers"]')
            await review.locator('input[name="reason?"]').fill("reads ssh keys")
            await review.locator("form.block-form button").click()
            await expect(page.locator("#change-feedback")).to_contain_text("Kept blocked: p_add_numbers stays held")
            await expect(review).to_have_count(0)
            blocked = page.locator('.kept-blocked-list .card.change[data-tool="p_add_numbers"]')
            await expect(blocked.locator(".kept-blocked")).to_contain_text("Kept blocked by local")
            await expect(blocked.locator(".kept-blocked")).to_contain_text(": reads ssh keys")
            await screenshot(page, "changes-blocked")
            await blocked.locator("a.pin-history").click()
            await expect(page.locator("h1")).to_contain_text("p_add_numbers")
            events = page.locator(".pin-events .pin-event")
            await expect(events.first).to_have_attribute("data-kind", "blocked")
            await expect(events.first).to_contain_text("Kept blocked by local")
            await screenshot(page, "pin-history")
            async with httpx.AsyncClient(base_url=running.base) as rest:
                pins = {p["name"]: p for p in (await rest.get("/api/pins", params={"server": "p"})).json()}
                held = {q["name"] for q in (await rest.get("/api/quarantine")).json()}
    assert pins["p_add_numbers"]["state"] == "quarantined"
    assert pins["p_add_numbers"]["blocked"]["reason"] == "reads ssh keys"
    assert "p_add_numbers" in held
