"""A server that logs in per person (`oauth.perUser`): each person's own connection to it.

The server's shared connection (`hintgate.sources.mcp.McpUpstream.run`, with
the shared login an operator made) lists its tools, prompts and resources and
is pinged; a person's call never goes through it. Each person gets a
connection of their own, opened with their own tokens (their `Credentials`,
through `hintgate.sources.oauth.gateway_auth`) at their first call, kept while
it is used, and closed after `IDLE_CLOSE` seconds without a call, at their
logout, or when the server stops. The connection a call takes is found by the
key of the person whose bearer token the gateway verified for that request
(the issuer and their `sub`, never a name another account could have), and it
carries that person's `httpx2.Auth` only: one person's token is never sent for
another.

Until a person has logged in, their call is answered with a link to the
gateway's page that logs them in (`login_page`, served by
`hintgate.web.person_logins`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from hintgate.config.model import ServerConfig
from hintgate.errors import HintgateError, UpstreamClosed
from hintgate.sources.connection import McpConnection
from hintgate.sources.oauth import Credentials, GatewayAuth, gateway_auth

__all__ = ["IDLE_CLOSE", "LOGIN_PATH", "PersonalConnections", "login_page"]

logger = logging.getLogger(__name__)

IDLE_CLOSE = 300.0
"""Seconds a person's connection stays open without a call."""
LOGIN_PATH = "/login/upstream"
"""Where on the gateway's web origin a person logs in to a server: `LOGIN_PATH/{server}`."""

Opener = Callable[[GatewayAuth, str], AbstractAsyncContextManager[McpConnection]]
"""Opens a connection to the server with a person's auth (`auth`, `person`)."""


def login_page(audience: str, server: str) -> str:
    """The page that logs a person in to `server`, at the origin of the gateway's audience."""
    parts = urlsplit(audience)
    return f"{parts.scheme}://{parts.netloc}{LOGIN_PATH}/{quote(server, safe='')}"


@dataclass(eq=False)
class _Held:
    """One person's connection: opened by a task that holds it until it is idle, stopped or lost."""

    ready: asyncio.Future[McpConnection]
    stop: asyncio.Event = field(default_factory=asyncio.Event)  # close now (logout, the server stops)
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # look again: retired, or its last call ended
    task: asyncio.Task[None] | None = None
    in_flight: int = 0
    last_used: float = 0.0
    retired: bool = False  # takes no new call; closes once its calls in flight have ended
    version: object | None = None  # the person's stored login as this gateway last saw it (after a call)

    def retire(self) -> None:
        self.retired = True
        self.wake.set()

    @property
    def usable(self) -> bool:
        if self.retired or self.stop.is_set() or (self.task is not None and self.task.done()):
            return False
        if self.ready.done():
            return self.ready.exception() is None and self.ready.result().closed is None
        return True


class _Writes:
    """A person's `Credentials` as one connection uses them: its writes stop once it is retired or stopped.

    A connection retired because another replica refreshed the tokens still
    holds the old ones; closing it sends a request (the session's DELETE)
    whose refresh, with a refresh token already spent, would be refused and
    would write "log in again" over the good login everyone else uses.
    """

    def __init__(self, credentials: Credentials, held: _Held) -> None:
        self._credentials = credentials
        self._held = held

    async def load(self, server: str) -> dict[str, Any] | None:
        return await self._credentials.load(server)

    async def version(self, server: str) -> object | None:
        return await self._credentials.version(server)

    async def save(self, server: str, document: dict[str, Any]) -> None:
        if not self._held.retired and not self._held.stop.is_set():
            await self._credentials.save(server, document)

    async def forget(self, server: str) -> bool:
        return await self._credentials.forget(server)

    def person(self, key: str, name: str | None = None) -> Credentials:
        return self._credentials.person(key, name)


class PersonalConnections:
    """The connections of one server that logs in per person, by person.

    Args:
        server: the server's config (its `oauth` block says how to log in).
        opener: opens a connection with a person's auth.
        idle: seconds a connection without calls stays open.
    """

    def __init__(self, server: ServerConfig, opener: Opener, *, idle: float = IDLE_CLOSE) -> None:
        self._server = server
        self._opener = opener
        self._idle = idle
        self._held: dict[str, _Held] = {}
        self._logins: dict[str, set[asyncio.Event]] = {}

    @property
    def people(self) -> frozenset[str]:
        """Who has a connection open (or opening) now."""
        return frozenset(person for person, held in self._held.items() if held.usable)

    @asynccontextmanager
    async def use(self, person: str, credentials: Credentials) -> AsyncIterator[McpConnection]:
        """`person`'s connection, opened on first use with their tokens.

        Raises:
            UpstreamNeedsLogin: the person keeps no tokens for the server (or they stopped working).
            UpstreamError: the connection could not be opened.
        """
        held = self._held.get(person)
        if held is None or not held.usable:
            held = self._open(person, credentials)
        held.in_flight += 1
        try:
            yield await asyncio.shield(held.ready)
        finally:
            held.in_flight -= 1
            held.last_used = asyncio.get_running_loop().time()
            if held.retired and not held.in_flight:
                held.wake.set()

    def _open(self, person: str, credentials: Credentials) -> _Held:
        loop = asyncio.get_running_loop()
        held = _Held(loop.create_future(), last_used=loop.time())
        previous = self._held.get(person)
        if previous is not None:
            previous.retire()
        self._held[person] = held
        held.task = loop.create_task(self._hold(person, credentials, held), name=f"person:{self._server.name}")
        return held

    async def _hold(self, person: str, credentials: Credentials, held: _Held) -> None:
        loop = asyncio.get_running_loop()
        try:
            auth = await gateway_auth(self._server, _Writes(credentials, held))
            async with self._opener(auth, person) as connection:
                held.ready.set_result(connection)
                closed = asyncio.ensure_future(connection.wait_closed())
                stopped = asyncio.ensure_future(held.stop.wait())
                try:
                    while not closed.done() and not stopped.done():
                        woken = asyncio.ensure_future(held.wake.wait())
                        await asyncio.wait(
                            {closed, stopped, woken}, timeout=self._idle / 4, return_when=asyncio.FIRST_COMPLETED
                        )
                        woken.cancel()
                        held.wake.clear()
                        idle = loop.time() - held.last_used >= self._idle
                        if held.in_flight == 0 and (held.retired or idle):
                            return
                finally:
                    closed.cancel()
                    stopped.cancel()
        except HintgateError as exc:
            if not held.ready.done():
                held.ready.set_exception(exc)
        except Exception as exc:  # whatever a transport raises ends this connection only
            logger.warning("%s: a person's connection failed: %s: %s", self._server.name, type(exc).__name__, exc)
            if not held.ready.done():
                held.ready.set_exception(UpstreamClosed(f"{type(exc).__name__}: {exc}", server=self._server.name))
        finally:
            if self._held.get(person) is held:
                del self._held[person]
            if not held.ready.done():
                held.ready.set_exception(UpstreamClosed("the connection was closed", server=self._server.name))
            if not held.ready.cancelled():
                held.ready.exception()  # retrieved: a failure no call awaited is not logged as lost

    def close(self, person: str) -> None:
        """Close `person`'s connection (their login was forgotten); a call in flight on it ends."""
        held = self._held.pop(person, None)
        if held is not None:
            held.stop.set()
            if held.task is not None and held.in_flight:
                held.task.cancel()

    def close_all(self) -> None:
        """Close every person's connection (the server stops)."""
        for person in list(self._held):
            held = self._held.pop(person)
            held.stop.set()
            if held.task is not None:
                held.task.cancel()

    def logged_in(self, person: str) -> None:
        """`person` has just logged in here: calls waiting for it go on."""
        for event in self._logins.get(person, ()):
            event.set()
        held = self._held.get(person)
        if held is not None:
            held.retire()  # a connection opened with old tokens takes no new call

    def check(self, person: str, version: object | None) -> None:
        """Before a call: `person`'s stored login is `version` (None: forgotten).

        Forgotten: their connection closes now. Written since this gateway last
        saw it (a login, or a refresh, on another replica): their connection
        takes no new call, and the next one opens with the tokens now kept. A
        refresh token that rotates is then never spent twice by two replicas,
        which would make the authorization server refuse the second and log
        the person out everywhere.
        """
        held = self._held.get(person)
        if held is None:
            return
        if version is None:
            self.close(person)
        elif held.version is not None and version != held.version:
            held.retire()

    def saw(self, person: str, version: object | None) -> None:
        """After a call: `person`'s stored login is `version`, own refreshes included."""
        held = self._held.get(person)
        if held is not None and not held.retired:
            held.version = version

    async def wait_for_login(self, person: str, credentials: Credentials, timeout: float, *, poll: float) -> bool:
        """Wait at most `timeout` seconds for `person` to log in; whether they did.

        A login on this gateway ends the wait at once; one on another replica
        is seen in the store within `poll` seconds.
        """
        event = asyncio.Event()
        self._logins.setdefault(person, set()).add(event)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while True:
                try:
                    document = await credentials.load(self._server.name)
                except HintgateError:
                    document = None  # unreadable now: asked again after the next wait
                if document and document.get("tokens"):
                    return True
                left = deadline - loop.time()
                if left <= 0:
                    return False
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(poll, left)):
                        await event.wait()
                if event.is_set():
                    return True
        finally:
            waiting = self._logins.get(person)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._logins[person]
