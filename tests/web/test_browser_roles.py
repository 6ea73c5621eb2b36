"""A member signed in to the dashboard sees what they may do and keeps their own preferences, in real Chromium.

The same team as tests/web/test_identity_browser.py (a real `oidc-provider` and `hintgate serve`, no admins
named): bob signs in at the issuer's development pages; he is a member.
"""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import expect
from test_browser import CHROMIUM, browser_page
from test_identity_browser import served

from hintgate.testing import RunningGateway
from oidc_peer import OidcIssuer

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/test installs it)"),
]

__all__ = ["served"]  # the fixture, shared with the sign-in test


async def test_a_member_keeps_their_own_preference_on_the_settings_page_and_sees_no_operators_controls(
    served: tuple[OidcIssuer, RunningGateway],
) -> None:
    issuer, gateway = served
    async with browser_page() as page:
        await page.goto(f"{gateway.base_url}/settings")
        await page.click("#sign-in-identity")
        await page.fill("input[name=login]", "bob")
        await page.fill("input[name=password]", "any")
        await page.click("button[type=submit]")
        await page.click("button[type=submit]")
        await page.wait_for_url(f"{gateway.base_url}/settings")
        await expect(page.locator("#settings")).to_have_count(0)
        await page.check("#mine-preferences-alwaysConfirmDestructive-strict")
        await page.click("#save-mine")
        await expect(page.locator("#mine .feedback")).to_contain_text("Saved")
        await expect(page.locator('[data-in-force="preferences.alwaysConfirmDestructive"]')).to_contain_text("on")
        await page.goto(f"{gateway.base_url}/")
        await expect(page.locator("#servers-heading")).to_be_visible()
        await expect(page.locator("#add-server")).to_have_count(0)
        await expect(page.locator("button.remove")).to_have_count(0)
        await expect(page.locator('nav a[href="/changes"]')).to_have_count(0)
    bobs = {"Authorization": f"Bearer {issuer.token('bob', gateway.mcp_url)}"}
    async with httpx.AsyncClient(base_url=gateway.base_url, headers=bobs, timeout=30) as http:
        mine = (await http.get("/api/me/preferences")).json()["preferences"]
    assert mine["alwaysConfirmDestructive"]["mine"] is True
