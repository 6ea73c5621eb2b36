"""What operators click, in a real browser: Playwright driving Debian's Chromium against `hintgate serve --http`.

The gateway runs as it would for a person: a subprocess fronting the bundled
demo server, with an MCP client connected to `/mcp` over streamable HTTP.
Screenshots of every page at 1280 and 390 px wide go to
`artifacts/screenshots/` for a reviewer (not committed).

Chromium comes from Debian (`apt-get install chromium`; scripts/test does it
as root): `playwright install` downloads are not used. Outside CI a missing
browser skips these tests; under CI it fails them.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from tests.configs import config_file, entry

from hintgate.testing import running_gateway

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
WIDTHS = (1280, 390)
TIMEOUT_MS = 15_000

if not CHROMIUM.exists():
    reason = (
        f"{CHROMIUM} is missing: apt-get install -y --no-install-recommends chromium (scripts/test does it as root)"
    )
    if os.environ.get("CI"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)

from playwright.async_api import Browser, Page, async_playwright, expect  # noqa: E402

# Assertions wait as long as actions do: a loaded machine is slow, not wrong.
expect.set_options(timeout=TIMEOUT_MS)

pytestmark = pytest.mark.anyio


@dataclass(frozen=True)
class Served:
    """A running gateway: its dashboard's base URL (no trailing slash) and its MCP endpoint."""

    base: str
    mcp: str


@contextmanager
def serve(
    tmp_path: Path, policy: dict[str, Any], others: dict[str, Any] | None = None, trust: str | None = None
) -> Iterator[Served]:
    """`hintgate serve --http 127.0.0.1:0` over the demo server (and `others`), its store in `tmp_path`.

    The demo server is `local` (a local command) unless `trust` says otherwise.
    """
    demo = entry([sys.executable, "-m", "hintgate.demo"], **({"trust": trust} if trust else {}))
    config = config_file(tmp_path, {"notes": demo, **(others or {})}, policy)
    # These tests are about the dashboard's pages, not signing in (tests/web/test_auth.py and
    # test_a_browser_signs_in_once_with_the_link_serve_prints are): no token on loopback.
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--config", str(config), "--no-require-token", env=env) as gateway:
        yield Served(gateway.base_url, gateway.mcp_url)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """A gateway that asks people in the dashboard's queue, and waits 30 s for them.

    Its read-only tools run unasked by the rule the bundled demo config has: the
    demo server is untrusted, and its own word that a tool only reads would not do.
    """
    policy = {"askVia": "queue", "approvalTimeout": 30, "rules": [{"allow": {"server": "notes", "tier": "read-only"}}]}
    with serve(tmp_path, policy, trust="untrusted") as running:
        yield running


def serve_poisoned(tmp_path: Path) -> AbstractContextManager[Served]:
    """`serve` with the named fixture server's poisoned tool as server `p` (held as `p_add_numbers`)."""
    named = str(Path(__file__).parents[1] / "fixtures" / "named_server.py")
    poisoned = {"command": sys.executable, "args": [named, "poisoned"]}
    return serve(tmp_path, {"askVia": "queue", "approvalTimeout": 30}, {"p": poisoned})


@asynccontextmanager
async def browser_page() -> AsyncIterator[Page]:
    """A fresh Chromium page 1280 px wide; every Playwright wait bounded by TIMEOUT_MS."""
    # Chromium keeps crash reports and settings under HOME and the XDG directories: give it its own.
    with tempfile.TemporaryDirectory(prefix="hintgate-chromium-") as home:
        env = {**os.environ, "HOME": home, "XDG_CONFIG_HOME": f"{home}/.config", "XDG_CACHE_HOME": f"{home}/.cache"}
        async with async_playwright() as playwright:
            browser: Browser = await playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, env=env
            )
            try:
                context = await browser.new_context(viewport={"width": 1280, "height": 900})
                context.set_default_timeout(TIMEOUT_MS)
                page = await context.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda error: errors.append(str(error)))
                yield page
                assert errors == [], f"JavaScript errors on the page: {errors}"
            finally:
                await browser.close()


@asynccontextmanager
async def mcp_client(served: Served) -> AsyncIterator[Client]:
    """An MCP client on the gateway's streamable HTTP endpoint (it cannot be asked: approvals queue)."""
    with anyio.fail_after(60):
        async with Client(served.mcp, mode="legacy") as client:
            yield client


async def screenshot(page: Page, name: str) -> None:
    """Save the page at both widths, checking it never scrolls sideways; back to 1280 px after."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        await page.set_viewport_size({"width": width, "height": 900})
        scroll_width = await page.evaluate("document.documentElement.scrollWidth")
        assert scroll_width <= width, f"{name} scrolls sideways at {width} px ({scroll_width} px wide)"
        await page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)
    await page.set_viewport_size({"width": 1280, "height": 900})


def card(page: Page, tool: str) -> Any:
    return page.locator(f'.tool-card[data-tool="{tool}"]')


def text_of(result: Any) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def test_a_hint_changed_in_the_editor_changes_the_catalog_badge_and_the_clients_tools_list(
    served: Served,
) -> None:
    async with mcp_client(served) as client, browser_page() as page:
        before = {t.name: t for t in (await client.list_tools()).tools}
        assert before["notes_list_notes"].annotations is not None
        assert before["notes_list_notes"].annotations.open_world_hint is True

        await page.goto(served.base + "/")
        await expect(card(page, "notes_list_notes").locator(".badge")).to_contain_text(["Read-only", "Open world"])
        await page.click('.tool-card[data-tool="notes_list_notes"] .tool-title a')
        await expect(page).to_have_title("List notes · hintgate")

        # By keyboard: arrows move through the radio group, Enter on the button saves.
        await page.focus("#hint-openWorldHint-inherit")
        await page.keyboard.press("ArrowRight")
        await page.keyboard.press("ArrowRight")
        await expect(page.locator("#hint-openWorldHint-false")).to_be_checked()
        await page.focus("#save-hints")
        await page.keyboard.press("Enter")
        await expect(page.locator("#hint-editor .feedback")).to_contain_text("Saved")
        effective = page.locator('#tool-hints tr[data-hint="openWorldHint"] td.effective')
        await expect(effective).to_contain_text("false")
        await expect(effective).to_contain_text("operator override")
        await expect(page.locator("#tool-hints > .badges")).to_contain_text("Closed world")
        await expect(page.locator("#save-hints")).to_be_focused()  # the refresh did not take focus away
        await screenshot(page, "tool")

        await page.click("header nav >> text=Catalog")
        badges = card(page, "notes_list_notes").locator(".badge")
        await expect(badges).to_contain_text(["Read-only", "Closed world"])

        with anyio.fail_after(15):
            after = {t.name: t for t in (await client.list_tools()).tools}
        assert after["notes_list_notes"].annotations is not None
        assert after["notes_list_notes"].annotations.open_world_hint is False

        # Back to inheriting: the server's word (not trusted) and the default stand again.
        await page.goto(served.base + "/tools/notes_list_notes")
        await page.click("#clear-hints")
        await expect(page.locator("#hint-openWorldHint-inherit")).to_be_checked()
        await expect(page.locator('#tool-hints tr[data-hint="openWorldHint"] td.effective')).to_contain_text("true")


async def test_approving_a_waiting_call_in_the_dashboard_gives_the_client_its_result(served: Served) -> None:
    async with mcp_client(served) as client, browser_page() as page:
        await page.goto(served.base + "/")
        call = asyncio.ensure_future(client.call_tool("notes_delete_note", {"note_id": 2}))
        try:
            # The count in the nav updates by itself, on any page.
            await expect(page.locator("#pending-count .count-number")).to_have_text("1")
            await page.click("header nav >> text=Approvals")
            approval = page.locator("li.approval")
            await expect(approval).to_have_count(1)
            await expect(approval.locator(".warnings")).to_contain_text("This tool may make destructive changes")
            await expect(approval.locator("pre.arguments")).to_contain_text('"note_id": 2')
            await screenshot(page, "approvals")
            await approval.get_by_role("button", name="Approve once").click()
            await expect(page.locator("#approval-feedback")).to_contain_text("Approved once: notes_delete_note")
            await expect(approval).to_have_count(0)
            await expect(page.locator("#approvals .empty")).to_be_visible()
            await expect(page.locator("#pending-count .count-number")).to_have_text("0")
            with anyio.fail_after(30):
                result = await call
        finally:
            call.cancel()
    assert result.is_error is not True
    assert "deleted note 2" in text_of(result)


async def test_denying_a_waiting_call_in_the_dashboard_gives_the_client_an_error(served: Served) -> None:
    async with mcp_client(served) as client, browser_page() as page:
        await page.goto(served.base + "/approvals")
        call = asyncio.ensure_future(client.call_tool("notes_purge_notes", {}))
        try:
            approval = page.locator('li.approval[data-tool="notes_purge_notes"]')
            await expect(approval).to_have_count(1)  # appears without a reload
            await approval.get_by_role("button", name="Deny").click()
            await expect(approval).to_have_count(0)
            with anyio.fail_after(30):
                result = await call
        finally:
            call.cancel()
    assert result.is_error is True
    assert "denied" in text_of(result)


async def test_the_sessions_page_separates_active_sessions_from_closed_ones(served: Served) -> None:
    async with browser_page() as page, httpx.AsyncClient(base_url=served.base) as rest:
        async with mcp_client(served) as client:
            await client.call_tool("notes_list_notes", {})
            with anyio.fail_after(15):  # the recorder commits every 50 ms
                while not (await rest.get("/api/sessions")).json():
                    await asyncio.sleep(0.05)
            await page.goto(served.base + "/sessions")
            await page.get_by_role("link", name="Active", exact=True).click()
            await expect(page.locator("tr.session[data-status=active]")).to_have_count(1)
            await page.get_by_role("link", name="Closed", exact=True).click()
            await expect(page.locator("tr.session")).to_have_count(0)
            await expect(page.locator(".notice")).to_contain_text("No closed sessions")
        # The client ended its session (DELETE): it moves to the Closed tab.
        with anyio.fail_after(15):
            while not (await rest.get("/api/sessions", params={"status": "closed"})).json():
                await asyncio.sleep(0.05)
        await page.reload()
        await expect(page.locator("tr.session[data-status=closed]")).to_have_count(1)
        await expect(page.get_by_role("link", name="Closed", exact=True)).to_have_attribute("aria-current", "true")
        await page.get_by_role("link", name="Active", exact=True).click()
        await expect(page.locator("tr.session")).to_have_count(0)
        await screenshot(page, "sessions-active-empty")


async def test_a_session_page_shows_the_calls_the_client_made_in_order(served: Served) -> None:
    async with mcp_client(served) as client, browser_page() as page:
        await client.call_tool("notes_list_notes", {})
        await client.call_tool("notes_get_note", {"note_id": 1})
        await client.call_tool("notes_current_time", {})

        # The recorder commits every 50 ms: wait (bounded) until the session is in the store.
        async with httpx.AsyncClient(base_url=served.base) as rest:
            with anyio.fail_after(15):
                while not (await rest.get("/api/sessions")).json():
                    await asyncio.sleep(0.05)
        await page.goto(served.base + "/sessions")
        row = page.locator("tr.session").first
        await expect(row).to_be_visible()
        await screenshot(page, "sessions")
        await row.locator("a").first.click()
        await expect(page.locator("h1")).to_contain_text("Session of")
        tools = page.locator("tr.call td[data-label=Tool] code")
        # The page of an active session picks up calls as they are recorded.
        await expect(tools).to_have_text(["notes_list_notes", "notes_get_note", "notes_current_time"])
        await expect(page.locator("tr.call .verdict").first).to_have_text("Allowed")
        await screenshot(page, "session")

        second = page.locator("tr.call").nth(1)
        await second.locator("summary").click()
        await expect(second.locator("pre.arguments")).to_contain_text('"note_id": 1')
        await expect(second.locator("pre.response")).to_contain_text("Welcome")

        await page.click("header nav >> text=Calls")
        await expect(page.locator("tr.call")).to_have_count(3)
        await page.select_option("#filter-tool", "notes_get_note")
        await expect(page.locator("tr.call")).to_have_count(1)
        await expect(page).to_have_url(served.base + "/calls?server=&tool=notes_get_note&tier=&verdict=")
        await page.select_option("#filter-tool", "")
        await expect(page.locator("tr.call")).to_have_count(3)
        await screenshot(page, "calls")


async def test_the_settings_page_changes_the_mode_and_says_what_it_means(served: Served) -> None:
    async with browser_page() as page:
        await page.goto(served.base + "/settings")
        await screenshot(page, "settings")
        await page.select_option("#setting-mode", "read-only")
        await page.check("#setting-preferences-autoApproveReadOnly-false")
        await page.click("#save-settings")
        await expect(page.locator("form#settings .feedback")).to_contain_text("Saved")
        await expect(page.locator('[data-effect="mode"]')).to_have_text(
            "Only read-only tools run; every other call is denied."
        )
        await expect(page.locator('[data-effect="autoApproveReadOnly"]')).to_have_text("Read-only tools ask first too.")
        response = await page.request.get(served.base + "/api/policy")
        policy = await response.json()
    assert policy["mode"] == "read-only"
    assert policy["preferences"]["autoApproveReadOnly"] is False


async def test_the_catalog_filters_and_every_page_fit_both_widths(served: Served) -> None:
    async with browser_page() as page:
        await page.goto(served.base + "/")
        groups = page.locator(".tool-group h3")
        await expect(groups).to_have_text(
            [
                re.compile(r"^Safe operations \d+$"),
                re.compile(r"^Modifying operations \d+$"),
                "Destructive operations 4",
            ],
        )
        purge = page.get_by_role("region", name=re.compile("^Destructive operations")).locator(".tool-card")
        await expect(purge.locator(".tool-title")).to_contain_text(["Purge notes"])
        await screenshot(page, "catalog")
        await page.select_option("#filter-tier", "destructive")
        empty = "readOnly=&destructive=&idempotent=&openWorld=&trust=&provenance="
        await expect(page).to_have_url(served.base + f"/?tier=destructive&server=&{empty}&q=")
        await expect(page.locator(".tool-card")).to_have_count(4)  # update, restore, delete, purge
        await expect(groups).to_have_text(["Destructive operations 4"])
        await page.fill("#filter-q", "purge")
        await expect(page.locator(".tool-card")).to_have_count(1)
        await expect(page.locator(".tool-card .tool-title")).to_have_text("Purge notes")
        await screenshot(page, "catalog-filtered")
        await page.goto(served.base + "/tools/notes_no_such_tool")
        await expect(page.locator("[role=alert]")).to_contain_text("There is no tool named")
        await screenshot(page, "not-found")


async def test_the_catalog_says_which_servers_are_down_and_why(tmp_path: Path) -> None:
    failing = {"command": sys.executable, "args": ["-c", "raise SystemExit('cannot open repository /srv/repo')"]}
    missing = {"command": str(tmp_path / "no-such-server")}
    with serve(tmp_path, {"askVia": "queue"}, {"git": failing, "fs": missing}) as running:
        async with browser_page() as page:
            await page.goto(running.base + "/")
            banner = page.locator(".servers-banner")
            await expect(banner).to_contain_text("2 of 3 servers are not up")
            await expect(banner.locator('[data-server="git"]')).to_be_visible()
            await expect(banner.locator('[data-server="fs"]')).to_be_visible()
            await expect(page.locator('#servers tr[data-server="notes"]')).to_have_attribute("data-state", "up")
            await expect(page.locator('#servers tr[data-server="git"]')).not_to_have_attribute("data-state", "up")
            await screenshot(page, "catalog-server-down")
            await page.goto(running.base + "/settings")
            await expect(page.locator(".servers-banner")).to_contain_text("2 of 3 servers are not up")


async def test_a_poisoned_tool_shows_its_highlighted_span_on_the_changes_page_and_accept_releases_it(
    tmp_path: Path,
) -> None:
    with serve_poisoned(tmp_path) as running:
        async with browser_page() as page:
            await page.goto(running.base + "/changes")
            held = page.locator('.card.change[data-tool="p_add_numbers"]')
            await expect(held.locator(".finding mark").first).to_be_visible()
            await expect(held.locator('.finding[data-code="HG613"] mark')).to_have_text(["~/.ssh", "id_rsa"])
            await screenshot(page, "changes")
            await held.locator("button.approve").click()
            await expect(page.locator("#change-feedback")).to_contain_text("Accepted: p_add_numbers")
            await expect(held).to_have_count(0)
            await expect(page.locator("#changes .notice.empty")).to_contain_text("No tool is held")
            async with httpx.AsyncClient(base_url=running.base) as rest:
                pins = {p["name"]: p for p in (await rest.get("/api/pins", params={"server": "p"})).json()}
    assert pins["p_add_numbers"]["state"] == "accepted"
    assert pins["p_add_numbers"]["accepted_by"] == "local"


async def test_a_browser_signs_in_once_with_the_link_serve_prints_and_the_link_is_spent(tmp_path: Path) -> None:
    with running_gateway("--demo", "--no-record") as gateway:
        (link,) = re.findall(r"this link works once\): (\S+)", "".join(gateway.log))
        async with browser_page() as page:
            await page.goto(gateway.base_url + "/approvals")
            await expect(page.locator("input[name=token]")).to_be_visible()  # not signed in: the sign-in page
            await page.goto(link)
            await expect(page).to_have_url(gateway.base_url + "/")
            await page.goto(gateway.base_url + "/approvals")
            await expect(page.locator("input[name=token]")).to_have_count(0)
        async with browser_page() as other:
            response = await other.goto(link)
            assert response is not None
            assert response.status == 401
            await expect(other.locator("body")).to_contain_text("used already")
