"""Tool results hintgate builds itself: the one shape of a failed call, and what one says.

A failure the model should read is a `CallToolResult` with `isError` true (not
a JSON-RPC error, which a client shows to nobody); every source and the call
pipeline build it here, so the shape is written once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ERROR_TEXT_LIMIT", "WrittenResult", "error_text", "result_problem", "server_down_error", "tool_error"]

ERROR_TEXT_LIMIT = 2000
"""Characters of a failed result's text kept as the call's error."""


class WrittenResult(dict[str, Any]):
    """A tool's result as it goes out, with its JSON as the result scan wrote it (`json`: compact, not ASCII-only):
    a transport writes that text instead of encoding the result again, and the call's record keeps it.

    Nothing changes a result in place once it is guarded (a change makes a new dict, which carries no JSON), so
    the text stays the result's.
    """

    __slots__ = ("json",)

    def __init__(self, result: Mapping[str, Any], json: str) -> None:
        super().__init__(result)
        self.json = json


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


# What each content block of the MCP spec must hold (`ContentBlock`), by its type; other types pass unread.
_BLOCK_FIELDS: Mapping[str, tuple[tuple[str, type[Any]], ...]] = {
    "text": (("text", str),),
    "image": (("data", str), ("mimeType", str)),
    "audio": (("data", str), ("mimeType", str)),
    "resource": (("resource", Mapping),),
    "resource_link": (("uri", str), ("name", str)),
}


def result_problem(result: Any) -> str | None:
    """What makes a server's `tools/call` answer no `CallToolResult`, with its JSON path; None when it is one.

    A client reading it would fail with a validation error that names neither
    the tool nor the server. Answers of another `resultType` (a task handle, a
    question for the client) are not read here.
    """
    if not isinstance(result, Mapping):
        return f"$: expected an object, got {_kind(result)}"
    if result.get("resultType", "complete") != "complete":
        return None
    content = result.get("content")
    if not isinstance(content, list):
        return "$: no content list" if content is None else f"$.content: expected a list, got {_kind(content)}"
    if "isError" in result and not isinstance(result["isError"], bool | None):
        return f"$.isError: expected true or false, got {_kind(result['isError'])}"
    for i, block in enumerate(content):
        if not isinstance(block, Mapping):
            return f"$.content[{i}]: expected a content block (an object), got {_kind(block)}"
        for key, kind in _BLOCK_FIELDS.get(str(block.get("type")), ()):
            if not isinstance(block.get(key), kind):
                wanted = "an object" if kind is Mapping else "a string"
                return f"$.content[{i}].{key}: expected {wanted}, got {_kind(block.get(key))}"
        if not isinstance(block.get("type"), str):
            return f"$.content[{i}].type: expected a string, got {_kind(block.get('type'))}"
    return None


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__
