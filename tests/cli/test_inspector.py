"""The MCP Inspector connects to `serve --http` by following the line `serve` prints for it.

`npx @modelcontextprotocol/inspector` installs 0.15.0 on Node 20 (later releases need Node 22): its
page takes the token alone as "Bearer Token" and sends `Authorization: Bearer TOKEN` through its
proxy. The real Inspector (pinned in tests/peers) in a real Chromium, against a real gateway.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from pathlib import Path

import anyio
import pytest
from tests.processes import free_port

from hintgate.testing import running_gateway

PEERS = Path(__file__).resolve().parents[1] / "peers" / "node_modules"
INSPECTOR = PEERS / "@modelcontextprotocol" / "inspector" / "cli" / "build" / "cli.js"
CHROMIUM = Path("/usr/bin/chromium")
TIMEOUT_MS = 30_000

MISSING = {
    INSPECTOR: "the MCP Inspector is not installed (scripts/test runs npm ci in tests/peers)",
    CHROMIUM: "Chromium is missing: apt-get install -y --no-install-recommends chromium",
}
for path, why in MISSING.items():
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(why, pytrace=False)
        pytest.skip(why, allow_module_level=True)

from playwright.async_api import async_playwright, expect  # noqa: E402

pytestmark = pytest.mark.anyio


async def test_the_inspector_0_15_lists_the_tools_following_the_line_serve_prints(tmp_path: Path) -> None:
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--demo", "--no-record", env=env) as gateway:
        (line,) = [line for line in gateway.log if "MCP Inspector (" in line]
        found = re.search(r'Transport Type "([^"]+)", URL (\S+), Authentication, Bearer Token: (\S+)', line)
        assert found is not None, line
        transport, url, token = found.groups()
        assert (transport, url, token) == ("Streamable HTTP", gateway.mcp_url, gateway.token)
        client, proxy = free_port(), free_port()
        inspector = subprocess.Popen(
            ["node", str(INSPECTOR)],
            env={
                **os.environ,
                "CLIENT_PORT": str(client),
                "SERVER_PORT": str(proxy),
                "MCP_PROXY_TOKEN": "proxy-session-token",
                "MCP_AUTO_OPEN_ENABLED": "false",
            },
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its launcher starts the proxy and the page's server: stopped as one group
        )
        try:
            assert inspector.stdout is not None
            with anyio.fail_after(60):
                said = ""
                while "is up and running" not in said:
                    said += await anyio.to_thread.run_sync(inspector.stdout.readline) or "(ended)"
                    assert "(ended)" not in said, said
            page_url = (
                f"http://127.0.0.1:{client}/?MCP_PROXY_AUTH_TOKEN=proxy-session-token"
                f"&MCP_PROXY_FULL_ADDRESS=http://127.0.0.1:{proxy}"
            )
            async with async_playwright() as playwright:
                # Chromium keeps crash reports and settings under HOME and the XDG directories: its own.
                home = tmp_path / "chromium-home"
                browser = await playwright.chromium.launch(
                    executable_path=str(CHROMIUM),
                    args=["--no-sandbox", "--headless", "--disable-gpu"],
                    env={
                        **os.environ,
                        "HOME": str(home),
                        "XDG_CONFIG_HOME": f"{home}/.config",
                        "XDG_CACHE_HOME": f"{home}/.cache",
                    },
                )
                try:
                    page = await browser.new_page()
                    page.set_default_timeout(TIMEOUT_MS)
                    await page.goto(page_url)
                    await page.locator("button[role=combobox]").first.click()
                    await page.get_by_role("option", name=transport).click()
                    await page.locator("#sse-url-input").fill(url)
                    await page.get_by_test_id("auth-button").click()
                    await page.get_by_test_id("bearer-token-input").fill(token)
                    await page.get_by_role("button", name=re.compile("^Connect")).click()
                    await expect(page.get_by_text("Connected").first).to_be_visible(timeout=TIMEOUT_MS)
                    await page.get_by_role("tab", name=re.compile("Tools")).click()
                    await page.get_by_role("button", name=re.compile("List Tools")).click()
                    await expect(page.get_by_text("notes_list_notes").first).to_be_visible(timeout=TIMEOUT_MS)
                finally:
                    await browser.close()
        finally:
            os.killpg(inspector.pid, signal.SIGTERM)
            inspector.wait(timeout=30)
            if inspector.stdout is not None:
                inspector.stdout.close()
