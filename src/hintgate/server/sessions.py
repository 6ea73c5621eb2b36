"""Client sessions: who is connected to the gateway, since when, and what they have done.

A session is one client connection (recorded as a session row): a stdio client
from its `initialize` until EOF, a streamable HTTP client from its
`initialize` until the HTTP session ends: the client sends DELETE, or it has
had no request in flight for `timeouts.sessionIdle` seconds (the SDK's
session manager then terminates it, and its id answers 404). The 2026-07-28
protocol era has no connection: each request stands alone and carries the
client's name and version in its envelope; hintgate groups such requests into
one session per client identity and closes it once it has had no request in
flight for `idle_timeout` seconds. Any client can declare any name and
version, so that grouping is for the records only: the call pipeline lends
such a session's taint to its calls but keeps no approval in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, Protocol

from hintgate.policy.principal import Principal, principal_of
from hintgate.random_ids import random_id
from hintgate.server import sdk
from hintgate.server.errors import UnknownName, to_mcp_error
from hintgate.session import ClientSession

__all__ = ["SessionObserver", "SessionObservers", "SessionTracker", "SessionsBeforeStore"]

logger = logging.getLogger(__name__)

SessionListener = Callable[["ClientSession"], None]

_SESSION_KEY = "hintgate.session"
"""The key of an HTTP request's session in its ASGI scope (`SessionTracker.for_request`)."""


class SessionObserver(Protocol):
    """Told when a client session starts and ends (the store's recorder, metrics...)."""

    def session_started(self, session: ClientSession) -> None:
        """A session began."""

    def session_ended(self, session: ClientSession) -> None:
        """A session ended (`ended_at` is set)."""


class SessionObservers(list[SessionObserver]):
    """The session observers of a gateway, told in order; one that fails is logged and skipped."""

    def started(self, session: ClientSession) -> None:
        """Tell every observer a session began."""
        for observer in self:
            _tell(observer, session, started=True)

    def ended(self, session: ClientSession) -> None:
        """Tell every observer a session ended."""
        for observer in self:
            _tell(observer, session, started=False)


def _tell(observer: SessionObserver, session: ClientSession, *, started: bool) -> None:
    """Tell `observer` that `session` began or ended; its failure is logged and goes no further (an observer's
    failure must not refuse the client's request)."""
    try:
        if started:
            observer.session_started(session)
        else:
            observer.session_ended(session)
    except Exception:
        logger.exception("session observer %r failed", observer)


class SessionsBeforeStore:
    """The sessions that began and ended before the store was open, in order, told to its recorder once it is.

    A gateway that reads its stored state ahead answers its first client before the store is open; the store's
    recorder then records those sessions from what each holds (`started_at`, `ended_at`), so none is lost.
    """

    def __init__(self) -> None:
        self._events: list[tuple[bool, ClientSession]] = []

    def session_started(self, session: ClientSession) -> None:
        self._events.append((True, session))

    def session_ended(self, session: ClientSession) -> None:
        self._events.append((False, session))

    def replay(self, observer: SessionObserver) -> None:
        """Tell `observer` every session event kept, in order."""
        events, self._events = self._events, []
        for started, session in events:
            _tell(observer, session, started=started)


class SessionTracker:
    """Finds or opens the session of each request and closes sessions when clients go.

    Args:
        on_start: called with each new session.
        on_end: called with each session that ended.
        idle_timeout: seconds without a request in flight after which a connectionless
            (2026-07-28) session is closed.
        modern_versions: protocol versions that have no connection.
    """

    def __init__(
        self,
        *,
        on_start: SessionListener | None = None,
        on_end: SessionListener | None = None,
        idle_timeout: float = 1800.0,
        modern_versions: frozenset[str] = frozenset(),
    ) -> None:
        self._on_start = on_start
        self._on_end = on_end
        self._idle_timeout = idle_timeout
        self._modern = modern_versions
        self._by_connection: dict[int, ClientSession] = {}
        # Keyed by person and view too: two people whose clients declare the same name never share a session,
        # nor does one client on two views.
        self._by_identity: dict[tuple[str | None, str | None, str | None, str | None], ClientSession] = {}
        self.view_of: Callable[[Any], str | None] = lambda _ctx: None
        """The view a request came in on (the gateway's: the `/mcp/NAME` path, or stdio's `--view`)."""

    def __iter__(self) -> Iterator[ClientSession]:
        """The active sessions."""
        yield from self._by_connection.values()
        yield from self._by_identity.values()

    def get(self, session_id: str) -> ClientSession | None:
        """An active session by id."""
        return next((s for s in self if s.id == session_id), None)

    def connections(self) -> list[Any]:
        """The live handshake-era connections (for notifications to every client)."""
        return [s.connection for s in self._by_connection.values() if s.connection is not None]

    def initialized(self, ctx: Any) -> bool:
        """Whether the request's connection completed the handshake (requests before it are refused)."""
        return bool(sdk.connection_of(ctx.session).initialize_accepted)

    def for_request(self, ctx: Any) -> ClientSession:
        """The session a request belongs to, opened on first sight.

        Found once per HTTP request and kept in its scope: a call asks for it four times (its target, its
        decision, its listing, its serving), and a request is in the session it was found in until that ends.
        """
        scope = getattr(ctx.request, "scope", None)
        if scope is not None:
            known: ClientSession | None = scope.get(_SESSION_KEY)
            if known is not None and known.ended_at is None:
                return known
        session = self._found(ctx)
        if scope is not None:
            scope[_SESSION_KEY] = session
        return session

    def _found(self, ctx: Any) -> ClientSession:
        version = ctx.protocol_version
        if version in self._modern:
            return self._for_identity(ctx, version)
        # The SDK builds a session object per request around the connection-scoped
        # `Connection`; that is what lives as long as the client's connection.
        connection = sdk.connection_of(ctx.session)
        key = id(connection)
        session = self._by_connection.get(key)
        if session is None:
            session = self._open(ctx, version, connection)
            self._by_connection[key] = session
            connection.exit_stack.callback(self._close_connection, key)
        elif (view := self.view_of(ctx)) != session.view:
            # One HTTP session id, two endpoints: the session stays on the view it was opened on.
            raise to_mcp_error(
                UnknownName(f"this session was opened on {_endpoint(session.view)}, not {_endpoint(view)}")
            )
        if session.transport_id is None and (headers := getattr(ctx.request, "headers", None)) is not None:
            session.transport_id = headers.get("mcp-session-id")
        session.last_seen = time.monotonic()
        return session

    def _for_identity(self, ctx: Any, version: str) -> ClientSession:
        self.expire()
        name, client_version = _client_info(ctx)
        principal = _principal(ctx)
        # The person's key, never their name: two accounts may share a name, never a session.
        key = (principal.key if principal is not None else None, name, client_version, self.view_of(ctx))
        session = self._by_identity.get(key)
        if session is None:
            session = self._open(ctx, version, None)
            session.client_key = "client:" + hashlib.sha256(json.dumps(key).encode()).hexdigest()
            self._by_identity[key] = session
        session.last_seen = time.monotonic()
        return session

    @property
    def idle_timeout(self) -> float:
        """Seconds without a request in flight after which a connectionless session is closed."""
        return self._idle_timeout

    @contextmanager
    def serving(self, ctx: Any) -> Iterator[ClientSession]:
        """The request's session, kept from going idle while the request is served (a call waiting for a person)."""
        session = self.for_request(ctx)
        session.in_flight += 1
        try:
            yield session
        finally:
            session.in_flight -= 1
            session.last_seen = time.monotonic()

    def _open(self, ctx: Any, version: str, connection: Any) -> ClientSession:
        name, client_version = _client_info(ctx)
        session = ClientSession(
            id=random_id(),
            client_name=name,
            client_version=client_version,
            user=principal.name if (principal := _principal(ctx)) is not None else None,
            principal=principal,
            view=self.view_of(ctx),
            transport="http" if ctx.request is not None else "stdio",
            protocol_version=version,
            started_at=datetime.now(UTC),
            connection=connection,
        )
        if self._on_start is not None:
            self._on_start(session)
        return session

    def _close_connection(self, key: int) -> None:
        session = self._by_connection.pop(key, None)
        if session is not None:
            self._end(session)

    def _end(self, session: ClientSession) -> None:
        session.ended_at = datetime.now(UTC)
        session.connection = None
        if self._on_end is not None:
            self._on_end(session)

    async def expire_idle(self) -> None:
        """Close 2026-07-28 sessions (they have no connection to end) once their client has gone quiet; runs
        until cancelled.

        The sweep runs every half idle timeout, at least every 0.25 s and at
        most every 60 s: a session ends at most that long after its timeout.
        """
        interval = min(60.0, max(0.25, self._idle_timeout / 2))
        while True:
            await asyncio.sleep(interval)
            self.expire()

    def expire(self) -> None:
        """Close connectionless sessions that have had no request in flight for longer than the idle timeout.

        A session whose client still has an approval question to answer is
        held open until the question expires: the answer must come from the
        session that was asked.
        """
        now = time.monotonic()
        for key, session in list(self._by_identity.items()):
            if session.in_flight == 0 and now >= session.held_until and now - session.last_seen > self._idle_timeout:
                del self._by_identity[key]
                self._end(session)

    def end(self, session_id: str) -> ClientSession | None:
        """End a connectionless (2026-07-28) session now: what it remembers (approvals, taint) goes with it.

        Returns a handshake-era session untouched (its connection must be closed: `Gateway.end_session`),
        and None when no active session has that id.
        """
        for key, session in list(self._by_identity.items()):
            if session.id == session_id:
                del self._by_identity[key]
                self._end(session)
                return session
        return self.get(session_id)

    def close_all(self) -> None:
        """End every session (the gateway is stopping)."""
        for connection_key in list(self._by_connection):
            self._close_connection(connection_key)
        for identity, session in list(self._by_identity.items()):
            del self._by_identity[identity]
            self._end(session)


def _endpoint(view: str | None) -> str:
    return "/mcp" if view is None else f"/mcp/{view}"


def _principal(ctx: Any) -> Principal | None:
    """Who makes an HTTP request, as the web layer verified it; None on stdio or without an identity provider."""
    request = ctx.request
    return principal_of(getattr(request, "scope", None)) if request is not None else None


def _client_info(ctx: Any) -> tuple[str | None, str | None]:
    params = ctx.session.client_params
    info = getattr(params, "client_info", None)
    if info is None:
        return None, None
    return getattr(info, "name", None), getattr(info, "version", None)
