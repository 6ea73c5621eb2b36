"""A client that leaves while its message is still being delivered: one log line, not tracebacks.

A handshake-era session can end (its client deletes it on the way out, or it
idles out) while a POST of the same client is between its answer (202 for a
notification such as `notifications/cancelled`) and handing the message to the
session. The SDK's transport then meets the session's closed stream: it logs
"Error handling POST request" with anyio's `ClosedResourceError`, tries to
send a 500 on a response already complete, and the ASGI server logs that
failure with more tracebacks. hintgate has already settled what the client
left (a call waiting for approval is withdrawn), so this one case is told in
one line. Only a closed or broken memory stream met on that path is quieted;
any other error there is logged and raised as before.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import anyio

__all__ = ["ClientLeftGuard"]

logger = logging.getLogger(__name__)

_SDK_LOGGER = "mcp.server.streamable_http"
_SDK_MESSAGE = "Error handling POST request"
_CLOSED = (anyio.ClosedResourceError, anyio.BrokenResourceError)
_KEPT_BODY = 65536  # bytes of a request body kept to name it in the line


@dataclass
class _Post:
    """One POST going the SDK's way: what it sent back, and whether its closed-stream error was quieted."""

    body: list[bytes] = field(default_factory=list)
    kept: int = 0
    completed: bool = False
    quieted: bool = False


_current: ContextVar[_Post | None] = ContextVar("hintgate_mcp_post", default=None)


class _QuietClosedStreams(logging.Filter):
    """Drops the SDK's "Error handling POST request" when it is a closed stream, inside a guarded POST."""

    def filter(self, record: logging.LogRecord) -> bool:
        post = _current.get()
        if post is None or record.msg != _SDK_MESSAGE or not record.exc_info:
            return True
        if isinstance(record.exc_info[1], _CLOSED):
            post.quieted = True
            return False
        return True


def _install_filter() -> None:
    sdk = logging.getLogger(_SDK_LOGGER)
    if not any(isinstance(f, _QuietClosedStreams) for f in sdk.filters):
        sdk.addFilter(_QuietClosedStreams())


def _described(post: _Post, session_id: str | None) -> str:
    """The line said when the client left: which request or notification, of which session."""
    try:
        message = json.loads(b"".join(post.body))
    except ValueError:
        message = None
    session = f" (session {session_id})" if session_id else ""
    if isinstance(message, dict) and message.get("id") is not None:
        return f"client left before the response to request {message['id']}{session} was sent"
    method = message.get("method") if isinstance(message, dict) else None
    what = f"its {method}" if isinstance(method, str) else "its message"
    return f"client left{session}: the session ended before {what} reached it"


class ClientLeftGuard:
    """The SDK's `/mcp` endpoint, with the closed-stream errors of a client that left told in one line.

    Args:
        app: the SDK's streamable HTTP ASGI endpoint.
    """

    def __init__(self, app: Any) -> None:
        self._app = app
        _install_filter()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST":
            await self._app(scope, receive, send)
            return
        post = _Post()
        token = _current.set(post)

        async def kept() -> Any:
            received = await receive()
            if received.get("type") == "http.request" and post.kept < _KEPT_BODY:
                chunk = received.get("body", b"")[: _KEPT_BODY - post.kept]
                post.body.append(chunk)
                post.kept += len(chunk)
            return received

        async def tracked(message: Any) -> None:
            if post.completed and post.quieted:
                return  # the SDK's 500 after an answer already sent: there is nowhere for it to go
            if message.get("type") == "http.response.body" and not message.get("more_body", False):
                post.completed = True
            await send(message)

        try:
            await self._app(scope, kept, tracked)
        except _CLOSED:
            if not post.quieted:
                raise
            headers = dict(scope.get("headers") or [])
            session = headers.get(b"mcp-session-id")
            logger.info(_described(post, session.decode("latin-1") if session else None))
        finally:
            _current.reset(token)
