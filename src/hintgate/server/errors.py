"""The one translation of hintgate's errors into MCP's (JSON-RPC) errors.

Nothing else in hintgate builds a JSON-RPC error: handlers raise what
`to_mcp_error` (for one of hintgate's errors) or `mcp_error` (for an error a
handler names by its code: tasks, `tools/resolve`) returns, and the SDK sends it.
"""

from __future__ import annotations

from typing import Any

from hintgate.errors import HintgateError, UpstreamRequestError

__all__ = ["UnknownName", "mcp_error", "to_mcp_error"]


class UnknownName(HintgateError):
    """A request named a tool, prompt or resource the gateway does not have, or was malformed."""


def mcp_error(code: int, message: str, data: Any = None) -> Exception:
    """The MCP error with JSON-RPC `code`, `message` and `data` (left out when None), for a handler to raise."""
    from mcp.shared.exceptions import MCPError

    return MCPError(code=code, message=message, data=data)


def to_mcp_error(exc: Exception) -> Exception:
    """The MCP error a client receives for `exc`."""
    from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

    if isinstance(exc, UpstreamRequestError):
        # The upstream's own JSON-RPC error passes through as it was.
        return mcp_error(exc.code, exc.message, exc.data)
    if isinstance(exc, UnknownName):
        return mcp_error(INVALID_PARAMS, str(exc))
    return mcp_error(INTERNAL_ERROR, str(exc))
