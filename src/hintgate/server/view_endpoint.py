"""`/mcp/NAME`: the MCP endpoint of one view, the same endpoint as `/mcp` told which view it serves.

Both protocol eras and every path (the fast path, the SDK's) serve a view
exactly as they serve `/mcp`: the view's name travels in the request's ASGI
scope (`VIEW_KEY`), where the gateway reads it (`Gateway.view_name`) and a
session opened there keeps it. A name that is no view answers 404.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["VIEW_KEY", "ViewEndpoint"]

VIEW_KEY = "hintgate.view"
"""The ASGI scope key holding the view a request came in on."""


class ViewEndpoint:
    """The ASGI app of `/mcp/{view}`: `/mcp`'s app with the view set in the scope.

    Args:
        app: the `/mcp` endpoint.
        views: the views served now, by name (asked at each request: a reload may add or remove one).
    """

    def __init__(self, app: Any, views: Callable[[], Mapping[str, object]]) -> None:
        self._app = app
        self._views = views

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        name = scope.get("path_params", {}).get("view")
        if scope["type"] != "http" or not isinstance(name, str) or name not in self._views():
            body = json.dumps({"error": f"no view is named {name!r}"}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 404,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self._app({**scope, VIEW_KEY: name}, receive, send)
