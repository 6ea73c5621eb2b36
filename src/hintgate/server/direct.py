"""tools/call taken off the stdio pipe before the SDK sees it (see `hintgate.server.stdio`).

Handshake-era calls on stdio skip the SDK's request machinery both ways; these
classes give such a call the request context fields hintgate reads
(`hintgate.request_context.RequestContext`), with the SDK's own per-request
`ServerSession` over its one stdio connection.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from mcp.server.session import ServerSession
    from mcp.shared.exceptions import MCPError

__all__ = ["DirectContext", "DirectStdioCalls"]

logger = logging.getLogger(__name__)

Write = Callable[[dict[str, Any]], Awaitable[None]]
"""Writes one JSON-RPC message to the client."""
CallTool = Callable[[Any, Mapping[str, Any] | None], Awaitable[dict[str, Any]]]
"""Runs one tools/call: (request context, params) → result JSON."""


class _Sdk(NamedTuple):
    ServerSession: type[ServerSession]
    MCPError: type[MCPError]


@functools.cache
def _sdk() -> _Sdk:
    """The SDK's types a direct call uses, imported by the first call (`server.front` answers before the SDK is
    loaded), then kept: an import statement run at every call costs more than the call's lookup."""
    from mcp.server.session import ServerSession
    from mcp.shared.exceptions import MCPError

    return _Sdk(ServerSession, MCPError)


class _DirectOutbound:
    """The request channel of a direct stdio call: requests through the SDK's connection, notifications written.

    It is what the SDK's per-request `ServerSession` sends through (the shape
    of the SDK's dispatch context), so a direct call's session is the SDK's own.
    """

    can_send_request = True

    def __init__(self, connection: Any, progress_token: Any, write: Write) -> None:
        self._connection = connection
        self._token = progress_token
        self._write = write

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> dict[str, Any]:
        # The SDK correlates the client's answer, which arrives on the same pipe.
        result: dict[str, Any] = await self._connection.outbound.send_raw_request(method, params, opts)
        return result

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._write(message)

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if self._token is None:
            return  # the client asked for no progress
        params: dict[str, Any] = {"progressToken": self._token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self.notify("notifications/progress", params)


class DirectContext:
    """The request context of a direct stdio call: the fields of the SDK's that hintgate reads.

    Its session is the SDK's `ServerSession` over the stdio connection and a
    channel that writes to the pipe.
    """

    method = "tools/call"
    request = None

    def __init__(self, connection: Any, request: Mapping[str, Any], write: Write) -> None:
        params = request.get("params")
        self.params: Mapping[str, Any] | None = params if isinstance(params, Mapping) else None
        meta = self.params.get("_meta") if self.params else None
        token = meta.get("progressToken") if isinstance(meta, Mapping) else None
        self.protocol_version: str = connection.protocol_version
        self.request_id = request.get("id")
        self.session = _sdk().ServerSession(_DirectOutbound(connection, token, write), connection)  # type: ignore[arg-type]


class DirectStdioCalls:
    """Takes handshake-era tools/call off the stdio pipe, once the SDK has accepted the handshake.

    Args:
        connection: the SDK's stdio connection, once a request has shown it (None before).
        call_tool: runs one call.
        modern_versions: protocol versions the SDK keeps answering itself.
    """

    def __init__(self, connection: Callable[[], Any], call_tool: CallTool, *, modern_versions: frozenset[str]) -> None:
        self._connection = connection
        self._call_tool = call_tool
        self._modern = modern_versions

    def ready(self) -> bool:
        """Whether calls can be taken directly: the handshake is done and it chose a handshake-era version."""
        connection = self._connection()
        return (
            connection is not None
            and bool(connection.initialize_accepted)
            and connection.protocol_version not in self._modern
        )

    async def call(self, request: dict[str, Any], write: Write) -> dict[str, Any]:
        """Answer one tools/call request: the JSON-RPC response to write."""
        ctx = DirectContext(self._connection(), request, write)
        try:
            result = await self._call_tool(ctx, ctx.params)
        except _sdk().MCPError as exc:
            return {"jsonrpc": "2.0", "id": request["id"], "error": exc.error.model_dump(exclude_none=True)}
        except Exception as exc:
            logger.exception("tools/call failed")
            return {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": str(exc)}}
        return {"jsonrpc": "2.0", "id": request["id"], "result": result}
