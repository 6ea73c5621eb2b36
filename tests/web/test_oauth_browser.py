"""A server behind OAuth, connected from the dashboard in a real browser (Debian's Chromium through Playwright).

`hintgate serve --http` fronts tests/fixtures/oauth_server.py (a real
authorization server before an MCP server checking bearer tokens). The
server starts in `needs_login`; the operator presses Connect, consents in the
tab that opens, the redirect comes back to the gateway's loopback listener,
and the server's tools reach a connected MCP client, all without a restart.
Tokens are looked up in the store afterwards and must appear nowhere else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import httpx
import pytest
from test_browser import CHROMIUM, browser_page, mcp_client, text_of  # skips the module without Chromium
from tests.configs import config_file

from hintgate.store import Store
from hintgate.store.oauth_tokens import CredentialsVault, vault_key
from hintgate.testing import running_gateway
from oauth_peer import OAuthPeer

pytestmark = pytest.mark.anyio

assert CHROMIUM.exists()


@dataclass
class Gateway:
    base: str
    mcp: str
    data: Path
    log: list[str] = field(default_factory=list)


@contextmanager
def serve(tmp_path: Path, peer: OAuthPeer, *, configured: bool = True) -> Iterator[Gateway]:
    """`hintgate serve --http` with the OAuth server as `tracker` (unless not `configured`), its stderr kept."""
    policy = {"rules": [{"allow": {"server": "tracker"}}]}
    servers = {"tracker": {"url": peer.url, "oauth": {}}} if configured else {}
    config = config_file(tmp_path, servers, policy)
    data = tmp_path / "data"
    # The key is made in the data directory (an empty variable is an unset one). These tests are about the
    # dashboard's pages, not signing in (tests/web/test_auth.py is): no token on loopback.
    env = {"HINTGATE_DATA_DIR": str(data), "HINTGATE_STATE_KEY": ""}
    with running_gateway("--config", str(config), "--no-require-token", env=env) as gateway:
        yield Gateway(gateway.base_url, gateway.mcp_url, data, gateway.log)


async def kept_tokens(data: Path) -> list[str]:
    store = await Store.open(f"sqlite:///{data / 'hintgate.db'}", recover=False, replica="test")
    try:
        document = await CredentialsVault(store.credentials, vault_key(None, data)).load("tracker")
    finally:
        await store.close()
    assert document is not None
    tokens = document["tokens"]
    return [tokens["access_token"], tokens["refresh_token"]]


async def test_connect_in_the_dashboard_logs_in_and_the_servers_tools_reach_a_connected_client(
    tmp_path: Path, oauth_peer: OAuthPeer
) -> None:
    with serve(tmp_path, oauth_peer) as gateway:
        async with httpx.AsyncClient(base_url=gateway.base, timeout=30) as rest, mcp_client(gateway) as client:  # type: ignore[arg-type]
            [server] = [s for s in (await rest.get("/api/servers")).json() if s["name"] == "tracker"]
            assert server["status"]["state"] == "needs_login"
            assert server["status"]["reason"] == "no one has logged in to it yet"
            assert not [t for t in (await client.list_tools()).tools if t.name.startswith("tracker_")]

            async with browser_page() as page:
                await page.goto(gateway.base + "/")
                row = page.locator('tr[data-server="tracker"]')
                assert await row.get_attribute("data-state") == "needs_login"
                async with page.context.expect_page() as opened:
                    await row.get_by_role("button", name="Connect").click()
                consent = await opened.value
                await consent.get_by_role("button", name="Allow").click()
                await consent.get_by_role("heading", name="Logged in to tracker").wait_for()
                await page.locator('tr[data-server="tracker"][data-state="up"]').wait_for()
                dashboard_html = await page.content()

            with anyio.fail_after(30):
                while not [t for t in (await client.list_tools()).tools if t.name == "tracker_whoami"]:
                    await asyncio.sleep(0.2)  # bounded poll: the list changes once the server is up
            assert "authorized" in text_of(await client.call_tool("tracker_whoami", {}))

            answers = [
                (await rest.get(path)).text
                for path in ("/api/servers", "/api/servers/tracker", "/api/servers/tracker/login", "/")
            ]
        tokens = await kept_tokens(gateway.data)
    for token in tokens:
        assert token not in dashboard_html
        assert all(token not in answer for answer in answers)
        assert token not in "".join(gateway.log)


async def test_a_server_behind_oauth_added_in_the_dashboard_is_connected_and_logged_out_there(
    tmp_path: Path, oauth_peer: OAuthPeer
) -> None:
    with serve(tmp_path, oauth_peer, configured=False) as gateway:
        async with browser_page() as page:
            await page.goto(gateway.base + "/")
            if await page.locator("details.add-server").get_attribute("open") is None:
                await page.locator("details.add-server summary").click()
            await page.fill("#server-name", "tracker")
            await page.fill("#server-url", oauth_peer.url)
            await page.check("#server-oauth")
            await page.click("#add-server-submit")
            row = page.locator('tr[data-server="tracker"]')
            await page.locator('tr[data-server="tracker"][data-state="needs_login"]').wait_for()

            async with page.context.expect_page() as opened:
                await row.get_by_role("button", name="Connect").click()
            consent = await opened.value
            await consent.get_by_role("button", name="Allow").click()
            await consent.get_by_role("heading", name="Logged in to tracker").wait_for()
            await page.locator('tr[data-server="tracker"][data-state="up"]').wait_for()

            page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
            await page.locator('tr[data-server="tracker"]').get_by_role("button", name="Log out").click()
            await page.locator('tr[data-server="tracker"][data-state="needs_login"]').wait_for()
            reason = await page.locator('tr[data-server="tracker"] td.reason').inner_text()
            assert "it was logged out: its tokens were forgotten" in reason
