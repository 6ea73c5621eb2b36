"""Each person's own connection to a server that logs in per person: opened once, kept apart, closed when done.

Unit tests over an in-memory opener; the real server, authorization server and
people are in tests/web/test_person_logins.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from hintgate.config.model import HttpTransport, OAuthConfig, ServerConfig
from hintgate.errors import UpstreamNeedsLogin
from hintgate.sources.oauth import GatewayAuth
from hintgate.sources.personal import PersonalConnections, login_page

pytestmark = pytest.mark.anyio

SERVER = ServerConfig(
    name="tracker", transport=HttpTransport(url="https://tracker.example/mcp", oauth=OAuthConfig(per_user=True))
)


class Kept:
    """One person's logins in memory."""

    def __init__(self, tokens: str | None) -> None:
        self.document: dict[str, Any] | None = {"tokens": {"access_token": tokens}} if tokens else None

    async def load(self, server: str) -> dict[str, Any] | None:
        return self.document

    async def version(self, server: str) -> object | None:
        return None

    async def save(self, server: str, document: dict[str, Any]) -> None:
        self.document = document

    async def forget(self, server: str) -> bool:
        return self.document is not None

    def person(self, key: str, name: str | None = None) -> Kept:
        raise AssertionError("not asked here")


class Connection:
    """What the opener yields: closed when its holder leaves it."""

    def __init__(self, person: str, auth: GatewayAuth) -> None:
        self.person = person
        self.auth = auth
        self.closed: Exception | None = None
        self._ended = asyncio.Event()

    async def wait_closed(self) -> Exception:
        await self._ended.wait()
        assert self.closed is not None
        return self.closed


class Opener:
    def __init__(self) -> None:
        self.opened: list[Connection] = []

    @asynccontextmanager
    async def __call__(self, auth: GatewayAuth, person: str) -> AsyncIterator[Any]:
        connection = Connection(person, auth)
        self.opened.append(connection)
        try:
            yield connection
        finally:
            connection.closed = RuntimeError("closed")


async def gone(connection: Connection) -> None:
    with anyio.fail_after(10):
        while connection.closed is None:
            await anyio.sleep(0.01)


async def test_each_person_gets_their_own_connection_opened_once_with_their_own_login() -> None:
    opener = Opener()
    connections = PersonalConnections(SERVER, opener)
    alice, bob = Kept("alice-token"), Kept("bob-token")
    seen: list[Any] = []

    async def use(person: str, kept: Kept) -> None:
        async with connections.use(person, kept) as connection:
            seen.append(connection)

    async with anyio.create_task_group() as group:
        for _ in range(3):
            group.start_soon(use, "alice", alice)
        group.start_soon(use, "bob", bob)
    assert sorted(c.person for c in opener.opened) == ["alice", "bob"]  # alice's three first calls: one connection
    stored = {c.person: c.auth.auth.stored.document["tokens"]["access_token"] for c in opener.opened}  # type: ignore[attr-defined]
    assert stored == {"alice": "alice-token", "bob": "bob-token"}
    assert connections.people == {"alice", "bob"}
    connections.close_all()


async def test_a_person_without_a_login_is_told_so_and_no_connection_is_opened() -> None:
    opener = Opener()
    connections = PersonalConnections(SERVER, opener)
    with pytest.raises(UpstreamNeedsLogin, match="no one has logged in"):
        async with connections.use("carol", Kept(None)):
            pass
    assert opener.opened == []
    assert connections.people == frozenset()


async def test_a_connection_closes_when_idle_at_logout_and_after_a_new_login() -> None:
    opener = Opener()
    connections = PersonalConnections(SERVER, opener, idle=0.2)
    async with connections.use("alice", Kept("a")):
        pass
    await gone(opener.opened[0])  # idle
    async with connections.use("alice", Kept("a")):
        pass
    connections.close("alice")  # logout
    await gone(opener.opened[1])
    async with connections.use("alice", Kept("a")):
        pass
    connections.logged_in("alice")  # new tokens: the old connection is not reused
    await gone(opener.opened[2])
    assert connections.people == frozenset()


async def test_a_call_waiting_for_its_person_goes_on_when_they_log_in_here() -> None:
    connections = PersonalConnections(SERVER, Opener())
    kept = Kept(None)
    waiting = asyncio.ensure_future(connections.wait_for_login("alice", kept, 30, poll=30))
    await anyio.sleep(0)
    assert not waiting.done()
    connections.logged_in("alice")
    with anyio.fail_after(5):
        assert await waiting is True
    assert await connections.wait_for_login("bob", kept, 0.05, poll=0.01) is False


def test_the_login_page_is_on_the_gateways_public_origin() -> None:
    assert login_page("https://hintgate.example.com/mcp", "my tracker") == (
        "https://hintgate.example.com/login/upstream/my%20tracker"
    )


async def test_a_login_written_elsewhere_retires_the_connection_after_its_calls_in_flight_end() -> None:
    opener = Opener()
    connections = PersonalConnections(SERVER, opener)
    kept = Kept("a")
    async with connections.use("alice", kept):
        pass
    connections.saw("alice", "v1")
    connections.check("alice", "v1")  # as this gateway left it: kept
    async with connections.use("alice", kept):
        pass
    assert len(opener.opened) == 1
    async with connections.use("alice", kept) as in_flight:
        connections.check("alice", "v2")  # another replica refreshed: no new call on it, this one ends first
        async with connections.use("alice", kept) as fresh:
            assert fresh is not in_flight
        await anyio.sleep(0)
        assert in_flight.closed is None
    await gone(in_flight)
    connections.check("alice", None)  # forgotten: closed at once
    await gone(opener.opened[1])
    assert connections.people == frozenset()
