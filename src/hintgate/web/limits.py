"""How much of a request the REST API and the dashboard read, and how much of it an error echoes.

Every body they take is a small JSON object or form, so a body over
`MAX_BODY` bytes is refused with 413 before it is parsed: when it declares
its length, before a byte is read; when it is sent in chunks, as soon as the
count passes the limit. `/mcp` is not covered here: the MCP SDK bounds its
own bodies (4 MiB). A validation error shows the input it refused only when
that input is short, and cuts long keys, so a 422 never sends a large body back.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ECHO_LIMIT", "MAX_BODY", "BodyLimit", "without_large_inputs"]

MAX_BODY = 1024 * 1024
ECHO_LIMIT = 200  # characters of JSON: enough to show a wrong value, never a whole document
_TOO_LARGE = f"the request body is over the limit of {MAX_BODY} bytes (1 MiB)"


class BodyLimit:
    """ASGI middleware refusing request bodies over `MAX_BODY` bytes with 413 and a JSON `detail`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def admit(self, _request: Request, _session_id: str) -> ASGIApp | None:
        """For a request to `/mcp` (which the MCP SDK bounds itself): nothing to refuse."""
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or path == "/mcp" or path.startswith("/mcp/"):
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:
            await JSONResponse({"detail": _TOO_LARGE}, status_code=413)(scope, receive, send)
            return
        received = 0
        started = refused = False

        async def counted() -> Message:
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    # Answer 413 now and tell the app the client left: it stops reading, and
                    # whatever it answers to that is dropped. No exception has to find its way out
                    # through the middlewares and the body parser (which would make it a 400).
                    refused = True
                    if not started:
                        await JSONResponse({"detail": _TOO_LARGE}, status_code=413)(scope, receive, send)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, watched)


def without_large_inputs(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validation errors (already JSON-ready) that cannot echo a large input.

    An `input` longer than `ECHO_LIMIT` characters of JSON is left out; a
    location part or message that long (an unknown key is part of the
    location) is cut, saying how long it was.
    """
    return [
        {
            key: _cut(value) if key == "msg" else [_cut(p) for p in value] if key == "loc" else value
            for key, value in error.items()
            if key != "input" or len(json.dumps(value, default=str)) <= ECHO_LIMIT
        }
        for error in errors
    ]


def _cut(part: Any) -> Any:
    if isinstance(part, str) and len(part) > ECHO_LIMIT:
        return f"{part[:40]}... ({len(part)} characters)"
    return part
