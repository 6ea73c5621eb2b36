"""What a tool's first call will get, shown before it is made: the catalog and a tool page in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import expect
from test_browser import browser_page, card, screenshot, serve

pytestmark = pytest.mark.anyio


async def test_the_catalog_and_a_tool_page_show_the_first_call_verdict_and_follow_a_mode_change(
    tmp_path: Path,
) -> None:
    with serve(tmp_path, {"askVia": "queue", "approvalTimeout": 30}) as running:
        async with browser_page() as page:
            await page.goto(running.base + "/")
            purge = card(page, "notes_purge_notes").locator(".first-call")
            await expect(purge).to_have_attribute("data-verdict", "ask")
            await expect(purge.locator(".badge")).to_have_text("Asks first")
            await expect(purge.locator(".first-call-label")).to_contain_text("default mode")
            await expect(purge.locator(".first-call-reason")).not_to_be_empty()
            await screenshot(page, "catalog-verdicts")

            await page.click('.tool-card[data-tool="notes_delete_note"] .tool-title a')
            verdict = page.locator("#tool-hints .first-call")
            await expect(verdict).to_have_attribute("data-verdict", "ask")
            await expect(verdict.locator(".first-call-reason")).to_contain_text("destructive")
            await screenshot(page, "tool-verdict")

            # Read-only mode, chosen on the settings page: the catalog now says writes are denied.
            await page.goto(running.base + "/settings")
            await page.select_option("#setting-mode", "read-only")
            await page.click("#save-settings")
            await expect(page.locator("form#settings .feedback")).to_contain_text("Saved")
            await page.goto(running.base + "/")
            await expect(page.locator(".mode-in-force")).to_have_text("read-only")
            denied = card(page, "notes_delete_note").locator(".first-call")
            await expect(denied).to_have_attribute("data-verdict", "deny")
            await expect(denied.locator(".badge")).to_have_text("Denied")
            await expect(denied.locator(".first-call-reason")).to_contain_text("read-only")
            await screenshot(page, "catalog-verdicts-read-only")


async def test_a_mode_saved_on_the_settings_page_says_it_was_changed_here_and_its_reset_brings_back_the_files(
    tmp_path: Path,
) -> None:
    with serve(tmp_path, {"mode": "accept-edits"}) as running:
        async with browser_page() as page:
            await page.goto(running.base + "/settings")
            origin = page.locator('[data-origin="mode"]')
            await expect(origin).to_have_text("From the config file.")
            await page.select_option("#setting-mode", "read-only")
            await page.click("#save-settings")
            await expect(page.locator("form#settings .feedback")).to_contain_text("Saved")
            await expect(origin).to_contain_text("Changed here by local")
            await expect(origin).to_contain_text("the config file says accept-edits")
            await screenshot(page, "settings-stored")
            await origin.locator("button.reset-setting").click()
            await expect(origin).to_have_text("From the config file.")
            await expect(page.locator("#setting-mode")).to_have_value("accept-edits")
