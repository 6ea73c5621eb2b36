"""The one translation of hintgate's errors into MCP's (JSON-RPC) errors.

Nothing else in hintgate builds a JSON-RPC error: handlers raise what
`to_mcp_error` returns, and the SDK sends it.
"""

from __future__ import annotations

from hintgate.errors import HintgateError, UpstreamRequestError

__all__ = ["UnknownName", "to_mcp_error"]


class UnknownName(HintgateError):
    """A request named a tool, prompt or resource the gateway does not have, or was malformed."""


def to_mcp_error(exc: Exception) -> Exception:
    """The MCP error a client receives for `exc`."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

    if isinstance(exc, UpstreamRequestError):
        # The upstream's own JSON-RPC error passes through as it was.
        return MCPError(code=exc.code, message=exc.message, data=exc.data)
    if isinstance(exc, UnknownName):
        return MCPError(code=INVALID_PARAMS, message=str(exc))
    return MCPError(code=INTERNAL_ERROR, message=str(exc))
