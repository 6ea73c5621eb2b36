"""The dashboard's server list in a real browser: add a server from the form, disable, enable and remove it."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest
from playwright.async_api import expect
from test_browser import Served, browser_page, mcp_client, screenshot, serve

pytestmark = pytest.mark.anyio


async def tool_names(client: object) -> set[str]:
    listed = await client.list_tools(cache_mode="refresh")  # type: ignore[attr-defined]
    return {t.name for t in listed.tools}


async def until(predicate: object, client: object) -> set[str]:
    """The client's tool names once `predicate(names)` holds (bounded)."""
    with anyio.fail_after(30):
        while True:
            names = await tool_names(client)
            if predicate(names):  # type: ignore[operator]
                return names
            await anyio.sleep(0.2)


async def test_a_server_added_in_the_form_runs_and_can_be_disabled_enabled_and_removed(tmp_path: Path) -> None:
    with serve(tmp_path, {"mode": "bypass"}) as served:
        await _drive(served)


async def _drive(served: Served) -> None:
    async with mcp_client(served) as client, browser_page() as page:
        page.on("dialog", lambda dialog: dialog.accept())
        await page.goto(served.base + "/")
        await page.click(".add-server summary")
        await page.fill("#server-name", "extra")
        await page.fill("#server-command", sys.executable)
        await page.fill("#server-args", "-m\nhintgate.demo")
        await page.fill("#server-env", "DEMO_LABEL=${NOT_SET:-none}")
        await page.check("#server-trust")
        await page.click("#add-server-submit")
        await expect(page.locator("#add-server .feedback")).to_contain_text("Added")
        row = page.locator('#servers tr[data-server="extra"]')
        await expect(row).to_have_attribute("data-state", "up")
        await expect(row.locator(".origin")).to_contain_text("added here")
        await expect(row.locator('td[data-label="Trust"]')).to_have_attribute("data-trust", "trusted")
        assert "extra_search_notes" in await until(lambda n: "extra_search_notes" in n, client)
        await screenshot(page, "catalog-servers")

        await row.locator("button.disable").click()
        await expect(row).to_have_attribute("data-state", "disabled")
        await expect(page.locator("#servers-feedback")).to_contain_text("Disabled: extra")
        await until(lambda n: not any(x.startswith("extra_") for x in n), client)

        await row.locator("button.enable").click()
        await expect(row).to_have_attribute("data-state", "up")
        await until(lambda n: "extra_search_notes" in n, client)

        await row.locator("button.remove").click()
        await expect(row).to_have_count(0)
        await expect(page.locator("#servers-feedback")).to_contain_text("Removed: extra")
        names = await until(lambda n: not any(x.startswith("extra_") for x in n), client)
        assert "notes_search_notes" in names

        # A bad entry is refused with what was wrong, and nothing is added.
        await page.fill("#server-name", "broken")
        await page.fill("#server-command", "")
        await page.fill("#server-args", "")
        await page.fill("#server-env", "")
        await page.click("#add-server-submit")
        await expect(page.locator("#add-server .feedback")).to_contain_text('needs "command"')
        await expect(page.locator('#servers tr[data-server="broken"]')).to_have_count(0)


async def test_the_trust_button_of_a_server_that_is_not_trusted_trusts_it_and_says_where_that_came_from(
    tmp_path: Path,
) -> None:
    far = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "untrusted", "prefix": "far"}
    with serve(tmp_path, {"mode": "default"}, {"far": far}) as served:
        async with browser_page() as page:
            page.on("dialog", lambda dialog: dialog.accept())
            await page.goto(served.base + "/")
            notes = page.locator('#servers tr[data-server="notes"] td[data-label="Trust"]')
            await expect(notes).to_have_attribute("data-trust", "local")
            await expect(notes).to_contain_text("default for where it runs")
            row = page.locator('#servers tr[data-server="far"]')
            cell = row.locator('td[data-label="Trust"]')
            await expect(cell).to_have_attribute("data-trust", "untrusted")
            await expect(cell).to_contain_text("config file")
            await row.locator("button.trust").click()
            await expect(page.locator("#servers-feedback")).to_contain_text("Trusted: far")
            await expect(cell).to_have_attribute("data-trust", "trusted")
            await expect(cell).to_have_attribute("data-trust-from", "runtime")
            await expect(row.locator("button.trust")).to_have_count(0)

            await page.goto(served.base + "/tools/notes_search_notes")
            await expect(page.locator("#trust-server")).to_contain_text("Trust notes")
            await expect(page.locator("#trust-help")).to_contain_text("hintgate trust notes")
            await page.click("#trust-server")
            await expect(page.locator("#trust-feedback")).to_contain_text("Trusted: notes")
            await page.reload()
            await expect(page.locator(".tool-meta .trust")).to_have_attribute("data-trust", "trusted")
            await expect(page.locator("#trust-server")).to_have_count(0)


async def test_a_server_found_in_the_registry_fills_the_add_form_and_is_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from registry_peer import WEATHER, running_registry

    with running_registry() as peer:
        # The gateway searches this registry, and reads the remote's secret header from its environment.
        monkeypatch.setenv("HINTGATE_REGISTRY_URL", peer.url)
        monkeypatch.setenv("X_API_KEY", "k-123")
        with serve(tmp_path, {"mode": "bypass"}) as served:
            async with browser_page() as page:
                await page.goto(served.base + "/")
                await page.click(".add-server summary")
                await page.fill("#registry-q", "weather")
                await page.click("#registry-search-submit")
                found = page.locator(f'li.registry-server[data-server="{WEATHER}"]')
                await expect(found).to_have_count(1)
                await expect(found.locator(".registry-needs")).to_contain_text("${X_API_KEY}: header X-API-Key")
                await screenshot(page, "add-server-registry")
                await found.get_by_role("button", name=f"Use remote:0 of {WEATHER}").click()
                await expect(page.locator("#server-name")).to_have_value("weather")
                await expect(page.locator("#server-url")).to_have_value("https://weather.example/${REGION:-eu}/mcp")
                await expect(page.locator("#server-headers")).to_have_value(
                    "X-API-Key=${X_API_KEY}\nX-Units=${X_UNITS:-metric}"
                )
                await expect(page.locator("#server-command")).to_have_value("")
                await expect(page.locator("#server-name")).to_be_focused()
                await page.click("#add-server-submit")
                await expect(page.locator("#add-server .feedback")).to_contain_text("Added")
                row = page.locator('#servers tr[data-server="weather"]')
                await expect(row).to_have_count(1)
                await expect(row.locator(".origin")).to_contain_text("added here")
