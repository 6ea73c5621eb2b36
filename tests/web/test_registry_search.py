"""The Add server form's registry search: the fragment lists what a registry on 127.0.0.1 answers, escaped, with
the entry each way to add a server becomes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from bs4 import BeautifulSoup
from tests.processes import free_port

from registry_peer import MEMORY, TIME, WEATHER, RegistryPeer, running_registry

if TYPE_CHECKING:
    from conftest import OpenDashboard

pytestmark = pytest.mark.anyio


@pytest.fixture
def peer() -> Iterator[RegistryPeer]:
    with running_registry() as running:
        yield running


def texts(soup: BeautifulSoup, selector: str) -> list[str]:
    return [" ".join(e.get_text(" ", strip=True).split()) for e in soup.select(selector)]


async def test_the_add_server_form_searches_the_registry_the_gateway_is_set_to(
    open_dashboard: OpenDashboard, peer: RegistryPeer
) -> None:
    async with open_dashboard(registry_url=peer.url) as dash:
        page = await dash.page("/")
        found = await dash.page("/fragments/registry", params={"q": "modelcontextprotocol"})
    form = page.select_one("details.add-server form#registry-search")
    assert form is not None
    assert form["hx-get"] == "/fragments/registry"
    assert form.select_one("input#registry-q[name=q]") is not None
    assert page.select_one("label[for=registry-q]") is not None
    assert [li["data-server"] for li in found.select("li.registry-server")] == [MEMORY, TIME]
    memory = found.select_one(f'li.registry-server[data-server="{MEMORY}"]')
    assert memory is not None
    button = memory.select_one('li[data-use="package:0"] button[data-fill-server]')
    assert button is not None
    fill = json.loads(button["data-fill-server"])  # type: ignore[arg-type]
    version = peer.servers[MEMORY]["version"]
    assert fill == {
        "name": "server-memory",
        "command": "npx",
        "args": f"-y\n@modelcontextprotocol/server-memory@{version}",
        "env": "",
        "url": "",
        "headers": "",
    }
    assert texts(memory, ".registry-needs li") == ["${MEMORY_FILE_PATH}: environment variable MEMORY_FILE_PATH"]
    assert peer.requests[0][1]["version"] == ["latest"]


async def test_a_remote_fills_the_url_and_its_headers_as_variables(
    open_dashboard: OpenDashboard, peer: RegistryPeer
) -> None:
    async with open_dashboard(registry_url=peer.url) as dash:
        found = await dash.page("/fragments/registry", params={"q": "weather"})
    button = found.select_one(f'li[data-server="{WEATHER}"] li[data-use="remote:0"] button[data-fill-server]')
    assert button is not None
    fill = json.loads(button["data-fill-server"])  # type: ignore[arg-type]
    assert (fill["url"], fill["headers"]) == (
        "https://weather.example/${REGION:-eu}/mcp",
        "X-API-Key=${X_API_KEY}\nX-Units=${X_UNITS:-metric}",
    )


async def test_what_a_registry_says_is_escaped_and_what_it_cannot_be_is_said(
    open_dashboard: OpenDashboard, peer: RegistryPeer
) -> None:
    peer.servers[WEATHER]["description"] = '<img src=x onerror="alert(1)"> forecasts'
    peer.servers[MEMORY]["packages"][0]["identifier"] = "--registry=https://evil.example"
    async with open_dashboard(registry_url=peer.url) as dash:
        response = await dash.client.get("/fragments/registry", params={"q": "e"})
    assert response.status_code == 200
    assert "<img" not in response.text
    soup = BeautifulSoup(response.text, "html.parser")
    assert texts(soup, f'li[data-server="{WEATHER}"] .description') == ['<img src=x onerror="alert(1)"> forecasts']
    assert MEMORY not in [li["data-server"] for li in soup.select("li.registry-server")]
    assert texts(soup, ".help")[-1].startswith("1 server.json the registry answered could not be read")


async def test_an_unreachable_registry_is_said_in_the_form_not_raised(open_dashboard: OpenDashboard) -> None:
    gone = f"http://127.0.0.1:{free_port()}"
    async with open_dashboard(registry_url=gone) as dash:
        found = await dash.page("/fragments/registry", params={"q": "memory"})
        empty = await dash.page("/fragments/registry", params={"q": "  "})
    assert texts(found, "[role=alert]")[0].startswith(f"cannot reach the registry at {gone}")
    assert empty.select("li.registry-server, [role=alert]") == []
