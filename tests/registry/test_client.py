"""The registry's API over HTTP, against a registry on 127.0.0.1: paged, bounded, its answers checked."""

from __future__ import annotations

from collections.abc import Iterator

import anyio
import pytest
from tests.processes import free_port

from hintgate.errors import NotInRegistry, RegistryError
from hintgate.registry.client import MAX_PAGES, RegistryClient
from registry_peer import MEMORY, TIME, WEATHER, RegistryPeer, running_registry

pytestmark = pytest.mark.anyio


@pytest.fixture
def peer() -> Iterator[RegistryPeer]:
    with running_registry() as running:
        yield running


async def test_a_search_reads_the_latest_versions_page_by_page_until_the_registry_has_no_more(
    peer: RegistryPeer,
) -> None:
    with anyio.fail_after(30):
        found = await RegistryClient(peer.url).search("")
    assert [s.name for s in found.servers] == [WEATHER, MEMORY, TIME]
    assert (found.more, found.skipped) == (False, [])
    assert [query["cursor"] for _, query in peer.requests if "cursor" in query] == [["2"]]
    for path, query in peer.requests:
        assert path == "/v0.1/servers"
        assert query["version"] == ["latest"]
        assert query["search"] == [""]


async def test_a_search_stops_at_its_limit_and_says_there_is_more(peer: RegistryPeer) -> None:
    with anyio.fail_after(30):
        found = await RegistryClient(peer.url).search("modelcontextprotocol", limit=1)
    assert [s.name for s in found.servers] == [MEMORY]
    assert found.more is True
    assert len(peer.requests) == 1


async def test_a_server_json_the_registry_lists_wrongly_is_skipped_and_said_with_its_path(peer: RegistryPeer) -> None:
    peer.servers[MEMORY]["packages"][0]["identifier"] = "--registry=https://evil.example"
    with anyio.fail_after(30):
        found = await RegistryClient(peer.url).search("")
    assert [s.name for s in found.servers] == [WEATHER, TIME]
    assert found.skipped == [
        "$.servers[1].server.packages[0].identifier: '--registry=https://evil.example' is not a valid npm package name"
    ]


async def test_one_server_is_its_latest_version_and_an_unknown_name_is_not_found(peer: RegistryPeer) -> None:
    client = RegistryClient(peer.url)
    with anyio.fail_after(30):
        memory = await client.server(MEMORY)
        with pytest.raises(NotInRegistry, match=f"io.example/nothing not found in the registry at {peer.url}"):
            await client.server("io.example/nothing")
        with pytest.raises(NotInRegistry, match="is not a registry server name"):
            await client.server("../../etc/passwd")
    assert memory.name == MEMORY
    assert peer.requests[0][0] == "/v0.1/servers/io.github.modelcontextprotocol%2Fserver-memory/versions/latest"
    assert len(peer.requests) == 2  # the bad name never left


async def test_an_answer_larger_than_the_cap_is_refused(peer: RegistryPeer) -> None:
    peer.mode = "huge"
    with anyio.fail_after(30), pytest.raises(RegistryError, match="with more than 1048576 bytes; refused"):
        await RegistryClient(peer.url, max_bytes=1024 * 1024).search("x")


async def test_a_registry_that_does_not_answer_in_time_is_given_up(peer: RegistryPeer) -> None:
    peer.mode = "slow"
    with anyio.fail_after(20), pytest.raises(RegistryError, match=r"did not answer /v0\.1/servers within 1 s"):
        await RegistryClient(peer.url, timeout=1).search("x")


async def test_garbage_and_a_cursor_that_goes_round_are_refused(peer: RegistryPeer) -> None:
    peer.mode = "garbage"
    with anyio.fail_after(30), pytest.raises(RegistryError, match=r"answered /v0\.1/servers with invalid JSON"):
        await RegistryClient(peer.url).search("x")
    peer.mode = "loop"
    peer.page_size = 1
    with anyio.fail_after(30), pytest.raises(RegistryError, match="answered a cursor it had answered before"):
        await RegistryClient(peer.url).search("")
    assert len(peer.requests) <= 1 + MAX_PAGES


async def test_a_registry_that_cannot_be_reached_is_named() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    with anyio.fail_after(30), pytest.raises(RegistryError, match=f"cannot reach the registry at {url}"):
        await RegistryClient(url).search("x")


def test_a_registry_url_must_be_https_unless_it_is_this_machine() -> None:
    with pytest.raises(RegistryError, match="expected an https:// URL"):
        RegistryClient("http://registry.example")
    with pytest.raises(RegistryError, match="no query, fragment or credentials"):
        RegistryClient("https://user:pw@registry.example")
    assert RegistryClient("https://registry.example/").url == "https://registry.example"
