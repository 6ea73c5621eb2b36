"""A model cannot steer its own gateway: a real `serve --http` with `mcp-server-fetch` behind it.

The model's tool here is the reference fetch server, which sends HTTP GETs to
any URL it is given. Pointed at the gateway itself, it asks (whatever the mode,
bypass included), and even when a person lets it run, the REST API refuses it:
the API token is required on loopback by default. No network: every URL is
the gateway's own or a page served by the test on loopback.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import Client
from tests.asking import Person
from tests.pages import serving_page

from hintgate.testing import running_gateway

pytestmark = pytest.mark.anyio


@pytest.fixture
def web_page() -> Iterator[str]:
    with serving_page(b"<html><body><p>A page elsewhere.</p></body></html>") as url:
        yield url


def fetch_in_bypass(tmp_path: Path) -> Path:
    fetch = shutil.which("mcp-server-fetch", path=str(Path(sys.executable).parent))
    assert fetch is not None, "mcp-server-fetch is a test dependency"
    web = {
        "command": fetch,
        "args": ["--ignore-robots-txt", "--allow-private-ips"],
        # The fetch server's HTML reader may run `npm install`: its cache goes to the test's directory.
        "env": {"npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_update_notifier": "false"},
    }
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps({"mcpServers": {"web": web}, "policy": {"mode": "bypass"}}))
    return path


async def test_the_rest_api_refuses_a_request_without_the_token_on_loopback(tmp_path: Path) -> None:
    with running_gateway("--config", str(fetch_in_bypass(tmp_path)), "--no-record") as gateway:
        async with httpx.AsyncClient(base_url=gateway.base_url, timeout=30) as anyone:
            calls = await anyone.get("/api/calls")
            bypass = await anyone.patch("/api/policy", json={"mode": "default"}, headers={"X-Hintgate-Request": "1"})
            server = await anyone.post(
                "/api/servers",
                json={"name": "sh", "command": "sh", "args": ["-c", "true"]},
                headers={"X-Hintgate-Request": "1"},
            )
            mcp = await anyone.post("/mcp", json={}, headers={"Accept": "application/json, text/event-stream"})
        async with httpx.AsyncClient(base_url=gateway.base_url, headers=gateway.headers, timeout=30) as operator:
            allowed = await operator.get("/api/tools")
    assert calls.status_code == bypass.status_code == server.status_code == mcp.status_code == 401
    assert allowed.status_code == 200


async def test_a_fetch_of_the_gateways_own_address_asks_even_in_bypass_and_other_urls_run(
    tmp_path: Path, web_page: str
) -> None:
    refusing = Person("deny")
    allowing = Person("approve-once")
    with running_gateway("--config", str(fetch_in_bypass(tmp_path)), "--no-record") as gateway, anyio.fail_after(120):
        port = gateway.base_url.rsplit(":", 1)[1]
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=refusing) as client:  # type: ignore[arg-type]
            elsewhere = await client.call_tool("web_fetch", {"url": web_page})
            own = await client.call_tool("web_fetch", {"url": f"{gateway.base_url}/api/calls"})
            spelled = await client.call_tool("web_fetch", {"url": f"http://localhost:{port}/api/policy"})
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=allowing) as client:  # type: ignore[arg-type]
            let_through = await client.call_tool("web_fetch", {"url": f"{gateway.base_url}/api/calls"})
    assert elsewhere.is_error is False, elsewhere.content
    assert "A page elsewhere" in str(elsewhere.content)
    assert own.is_error is True
    assert spelled.is_error is True
    assert len(refusing.asked) == 2
    assert all("own address" in question for question in refusing.asked)
    assert f"127.0.0.1:{port}" in refusing.asked[0]
    assert f"localhost:{port}" in refusing.asked[1]
    # A person let it run: the fetch reached the API without the token, and the API refused it.
    assert len(allowing.asked) == 1
    assert "401" in str(let_through.content)
