"""The dashboard signs people in with the identity provider (authorization code + PKCE), in real Chromium.

A real OpenID provider (npm `oidc-provider`, its development login and consent pages) and `hintgate serve`:
carol (dba) signs in from the dashboard's sign-in page and approves bob's destructive call, which only a
dba may approve; the call's record names both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from test_browser import CHROMIUM, browser_page
from tests.processes import free_port

from hintgate.testing import RunningGateway, running_gateway
from oidc_peer import OidcIssuer

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium is not installed (scripts/test installs it)"),
]

RULES = [
    {"allow": {"group": "devs", "server": "notes", "tier": "additive"}},
    {"ask": {"server": "notes", "tier": "destructive", "approvers": {"group": "dba"}}},
]


@pytest.fixture
def served(tmp_path: Path, demo_cmd: list[str]) -> Iterator[tuple[OidcIssuer, RunningGateway]]:
    port = free_port()
    issuer = OidcIssuer(redirect_uris=(f"http://127.0.0.1:{port}/login/identity/callback",))
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({
        "mcpServers": {"notes": {"command": demo_cmd[0], "args": demo_cmd[1:], "trust": "trusted"}},
        "identity": {"issuer": issuer.issuer, "audience": f"http://127.0.0.1:{port}/mcp",
                     "dashboardClient": "dashboard"},
        "policy": {"rules": RULES, "approvalTimeout": 120},
    }))  # fmt: skip
    try:
        with running_gateway("--config", str(config), bind=f"127.0.0.1:{port}") as gateway:
            yield issuer, gateway
    finally:
        issuer.stop()


async def test_a_dba_signs_in_at_the_issuer_and_approves_a_devs_destructive_call_from_the_dashboard(
    served: tuple[OidcIssuer, RunningGateway],
) -> None:
    issuer, gateway = served
    url = gateway.mcp_url
    results: list[Any] = []
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {issuer.token('bob', url)}"}, timeout=150) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy") as bob,  # type: ignore[arg-type]
    ):
        created = await bob.call_tool("notes_create_note", {"title": "t", "body": "b"})
        note_id = json.loads(created.content[0].text)["id"]  # type: ignore[union-attr]

        async def delete() -> None:
            results.append(await bob.call_tool("notes_delete_note", {"note_id": note_id}))

        async with anyio.create_task_group() as tasks, browser_page() as page:
            tasks.start_soon(delete)
            await page.goto(f"{gateway.base_url}/approvals")
            assert "/login" in page.url, "not signed in yet: the sign-in page"
            await page.click("#sign-in-identity")
            # The provider's own development pages: any password, then consent.
            await page.fill("input[name=login]", "carol")
            await page.fill("input[name=password]", "any")
            await page.click("button[type=submit]")
            await page.click("button[type=submit]")
            await page.wait_for_url(f"{gateway.base_url}/approvals")
            cookies = {c["name"]: c for c in await page.context.cookies()}
            assert cookies["hintgate_person"]["httpOnly"]
            assert "hintgate_token" not in cookies, "signed in as a person, not with the API token"
            held = page.locator("#approvals li", has_text="notes_delete_note")
            await held.locator("button.approve").first.click()
            with anyio.fail_after(60):
                while not results:
                    await anyio.sleep(0.05)
    [deleted] = results
    assert not deleted.is_error, deleted
    done = subprocess.run(
        [sys.executable, "-m", "hintgate", "calls", "--user", "bob@example.com", "--tool", "notes_delete_note",
         "--format", "json"],
        check=False, capture_output=True, text=True, timeout=60, env={**os.environ},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [record] = json.loads(done.stdout)
    assert record["decision"]["approver"] == "carol@example.com"


async def test_a_sign_in_link_of_someone_elses_leaves_a_signed_in_browser_as_it_was(
    served: tuple[OidcIssuer, RunningGateway],
) -> None:
    """Login CSRF in a real browser: mallory signs in up to the provider's redirect and sends carol the link;
    carol's Chromium, signed in as carol, says the sign-in did not start there and stays carol's."""
    issuer, gateway = served
    base = gateway.base_url

    def mallorys_link() -> str:
        import httpx

        with httpx.Client(timeout=30) as mallory:
            start = mallory.get(f"{base}/login/identity", params={"next": "/approvals"})
            return issuer.sign_in(start.headers["location"], "mallory")

    async with browser_page() as page:
        await page.goto(f"{base}/approvals")
        await page.click("#sign-in-identity")
        await page.fill("input[name=login]", "carol")
        await page.fill("input[name=password]", "any")
        await page.click("button[type=submit]")
        await page.click("button[type=submit]")
        await page.wait_for_url(f"{base}/approvals")
        handed = await anyio.to_thread.run_sync(mallorys_link)
        answer = await page.goto(handed)
        assert answer is not None
        assert answer.status == 400
        assert "did not start here" in await page.inner_text("h1")
        me = await page.evaluate("fetch('/api/me').then(r => r.json())")
    assert me["name"] == "carol@example.com"
