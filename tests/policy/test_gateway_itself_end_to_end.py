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


async def test_a_fetch_of_the_gateways_port_spelled_with_leading_zeros_asks(tmp_path: Path) -> None:
    refusing = Person("deny")
    with running_gateway("--config", str(fetch_in_bypass(tmp_path)), "--no-record") as gateway, anyio.fail_after(120):
        port = gateway.base_url.rsplit(":", 1)[1]
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=refusing) as client:  # type: ignore[arg-type]
            zeros = await client.call_tool("web_fetch", {"url": f"http://127.0.0.1:0000{port}/api/calls"})
            slashless = await client.call_tool("web_fetch", {"url": f"http:localhost:{port}/api/policy"})
    assert zeros.is_error is True, zeros.content
    assert slashless.is_error is True, slashless.content
    assert len(refusing.asked) == 2
    assert all("own address" in question for question in refusing.asked)
    assert f"127.0.0.1:0000{port}" in refusing.asked[0]


async def test_a_file_tool_reading_the_data_directory_by_any_spelling_of_its_path_asks_even_in_bypass(
    tmp_path: Path, filesystem_cmd: list[str]
) -> None:
    # npm's server-filesystem may read everything under its root, and the gateway's data directory is there.
    root = Path(filesystem_cmd[-1]).resolve()
    data = root / "hintgate-data"
    (root / "notes.txt").write_text("a note")
    config = tmp_path / "hintgate.json"
    servers = {"fs": {"command": filesystem_cmd[0], "args": filesystem_cmd[1:]}}
    config.write_text(json.dumps({"mcpServers": servers, "policy": {"mode": "bypass"}}))
    refusing = Person("deny")
    spellings = [
        f"{root}//hintgate-data/api-token",
        f"{root}/./hintgate-data/api-token",
        f"{root}/x/../hintgate-data/api-token",
    ]
    env = {"HINTGATE_DATA_DIR": str(data)}
    with running_gateway("--config", str(config), "--no-record", env=env) as gateway, anyio.fail_after(120):
        assert (data / "api-token").exists()
        async with Client(gateway.mcp_transport(), mode="legacy", elicitation_callback=refusing) as client:  # type: ignore[arg-type]
            note = await client.call_tool("fs_read_text_file", {"path": str(root / "notes.txt")})
            read = [await client.call_tool("fs_read_text_file", {"path": path}) for path in spellings]
    assert note.is_error is False, note.content
    assert "a note" in str(note.content)
    assert [result.is_error for result in read] == [True, True, True]
    assert gateway.token is not None
    assert not any(gateway.token in str(result.content) for result in read)
    assert len(refusing.asked) == 3
    assert all("data directory" in question for question in refusing.asked)
