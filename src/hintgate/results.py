"""Tool results hintgate builds itself: the one shape of a failed call, and what one says.

A failure the model should read is a `CallToolResult` with `isError` true (not
a JSON-RPC error, which a client shows to nobody); every source and the call
pipeline build it here, so the shape is written once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ERROR_TEXT_LIMIT", "error_text", "server_down_error", "tool_error"]

ERROR_TEXT_LIMIT = 2000
"""Characters of a failed result's text kept as the call's error."""


def tool_error(text: str) -> dict[str, Any]:
    """A `CallToolResult` that reports a failure to the model (`isError` true)."""
    return {"content": [{"type": "text", "text": text}], "isError": True}


def server_down_error(tool: str, server: str, state: str) -> dict[str, Any]:
    """The tool error of a call to a server that is not up.

    Args:
        tool: the public tool name.
        server: the server's name.
        state: what the server is, as `UpstreamDown.detail` says it
            (`is failed: exited with 1`), without a trailing full stop.
    """
    return tool_error(f"The tool {tool!r} is unavailable: server {server!r} {state.rstrip('.')}.")


def error_text(result: Mapping[str, Any]) -> str:
    """The text of a failed result, for the call's record (bounded)."""
    content = result.get("content")
    if isinstance(content, list):
        texts = [str(c["text"]) for c in content if isinstance(c, Mapping) and isinstance(c.get("text"), str)]
        if texts:
            return "\n".join(texts)[:ERROR_TEXT_LIMIT]
    return "the tool reported an error"
