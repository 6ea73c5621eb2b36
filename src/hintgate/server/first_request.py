"""A handshake-era HTTP session that makes no request after `initialize` is closed within a minute.

The SDK closes a session once it has had no request in flight for
`timeouts.sessionIdle` seconds (30 minutes by default): a client that only
sends `initialize` (and `notifications/initialized`) and then nothing costs
its session's memory and task for that long, and thousands of them are cheap
to open. `FirstRequestDeadline` sits in front of `/mcp` and, after each POST
of a session that has not yet sent a request other than `initialize`, brings
the session's idle deadline forward to `timeouts.sessionFirstRequest` seconds
(60 by default) from now; the first real request (`tools/list`, `ping`, a
call...) lifts it, and from then on the usual idle timeout applies. An open
GET stream holds the session as the SDK's own idle clock does.

It reads the message `RequestIdGuard` decoded (`MESSAGE_KEY` in the ASGI
scope) and the session's transport and idle clock in the SDK's session
manager (private to the SDK: read through `hintgate.server.sdk`).
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING, Any

from hintgate.server import sdk
from hintgate.server.request_ids import MESSAGE_KEY

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["FirstRequestDeadline"]

logger = logging.getLogger(__name__)


def _is_request(message: Any) -> bool:
    """A JSON-RPC request other than `initialize` (a notification or a response does not count)."""
    return isinstance(message, dict) and "id" in message and "method" in message and message["method"] != "initialize"


class FirstRequestDeadline:
    """The ASGI app in front of `/mcp` that closes sessions which made no request within `timeout` seconds.

    Args:
        app: the endpoint that serves `/mcp`.
        manager: the SDK's session manager (its sessions' transports hold the idle clocks).
        timeout: seconds a session may go from `initialize` without a request.
    """

    def __init__(self, app: ASGIApp, manager: Any, timeout: float) -> None:
        self._app = app
        self._manager = manager
        self._timeout = timeout
        # Transports of sessions that made a request: gone with their session.
        self._requested: weakref.WeakSet[Any] = weakref.WeakSet()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self._app(scope, receive, send)
            return
        given: str | None = None
        for name, value in scope["headers"]:  # a loop, not a generator: this runs for every request
            if name == b"mcp-session-id":
                given = value.decode("latin-1")
                break
        if given:  # the session is named: its answer is passed on as it is
            await self._app(scope, receive, send)
            self.seen(given, scope.get(MESSAGE_KEY))
            return
        opened: list[str] = []

        async def sent(message: Message) -> None:
            if message["type"] == "http.response.start" and not opened:
                for name, value in message.get("headers", ()):
                    if name.lower() == b"mcp-session-id":
                        opened.append(value.decode("latin-1"))
            await send(message)

        await self._app(scope, receive, sent)
        session_id = opened[0] if opened else None
        if session_id is not None:
            self.seen(session_id, scope.get(MESSAGE_KEY))

    def seen(self, session_id: str, message: Any) -> None:
        """After a POST of the session `session_id` carrying `message` (decoded; None: not read whole): a request
        other than `initialize` marks the session as having made one (then the usual idle timeout applies);
        anything before the first one brings its idle deadline forward."""
        transport = sdk.http_transport(self._manager, session_id)
        if transport is None or transport in self._requested:
            return
        if _is_request(message):
            self._requested.add(transport)
            return
        sdk.shorten_idle(transport, self._timeout)
