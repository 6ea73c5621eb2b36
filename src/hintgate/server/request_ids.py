"""JSON-RPC ids MCP refuses, refused over streamable HTTP as on stdio.

MCP allows a request id that is a string or an integer: not null, and a
float, a boolean, an array or an object is no id either. The SDK's HTTP
transport takes a message with such an id for something it need not answer
(202, nothing runs, the client waits for an answer that never comes), while
stdio answers it -32600. `RequestIdGuard` sits in front of `/mcp` and answers
such a POST itself: HTTP 400 with a JSON-RPC error -32600 and `id: null`,
saying which id, as stdio does. Every other request goes on unchanged, its
body replayed.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["INVALID_REQUEST", "MESSAGE_KEY", "RequestIdGuard", "id_refusal", "replay", "valid_id"]

INVALID_REQUEST = -32600
"""JSON-RPC's Invalid Request error code."""

MESSAGE_KEY = "hintgate.message"
"""The ASGI scope key where `RequestIdGuard` leaves the POST's decoded message (absent: not read whole)."""


def valid_id(value: Any) -> bool:
    """A JSON-RPC id MCP accepts: a string or an integer (not null, and bool is not an integer here)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def id_refusal(message: Any) -> str | None:
    """What is wrong with the id of a JSON-RPC message object, or None when it has none or a valid one."""
    if not isinstance(message, dict) or "id" not in message or valid_id(message["id"]):
        return None
    shown = json.dumps(message["id"])[:40]
    return f"Invalid Request: id {shown} is not a string or an integer; the request was not run"


class RequestIdGuard:
    """The ASGI app in front of `/mcp` that answers a POST whose message has an invalid id with -32600.

    Args:
        app: the endpoint that serves `/mcp` otherwise.
        limit: the body size the endpoint accepts; a larger body is passed on unread (the endpoint refuses it).
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        # Imported here, on the HTTP path: a stdio gateway reads `id_refusal` before its first listing without it.
        from pydantic_core import from_json

        self.app = app
        """The endpoint behind it."""
        self._limit = limit
        self._decode = from_json

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                more = True  # the client left: the endpoint sees it when it reads on
                break
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            more = bool(message.get("more_body", False))
            if size > self._limit:
                break
        body = b"".join(chunks)
        if not more:
            try:
                decoded = self._decode(body)
            except ValueError:
                decoded = None  # the endpoint answers the parse error
            scope[MESSAGE_KEY] = decoded
            refusal = id_refusal(decoded)
            if refusal is not None:
                await _refuse(send, refusal)
                return
        await self.app(scope, replay(body, receive, more=more), send)


async def _refuse(send: Send, text: str) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": INVALID_REQUEST, "message": text}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def replay(body: bytes, receive: Receive, *, more: bool) -> Receive:
    """A `receive` that gives the body already read, then what the client still sends."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return replayed
