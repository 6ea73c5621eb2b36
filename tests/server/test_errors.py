"""The one translation of hintgate's errors into MCP errors."""

from __future__ import annotations

from mcp.shared.exceptions import MCPError

from hintgate.errors import UpstreamRequestError, UpstreamTimeout
from hintgate.server.errors import UnknownName, mcp_error, to_mcp_error


def test_an_upstream_json_rpc_error_passes_through_with_its_own_code_message_and_data() -> None:
    # A message that itself looks like hintgate's suffix survives: nothing is parsed back out of text.
    exc = UpstreamRequestError("bad (JSON-RPC error 7) input", code=-32602, data={"field": "x"}, server="s")
    translated = to_mcp_error(exc)
    assert isinstance(translated, MCPError)
    assert (translated.error.code, translated.error.message, translated.error.data) == (
        -32602,
        "bad (JSON-RPC error 7) input",
        {"field": "x"},
    )
    assert exc.message == "bad (JSON-RPC error 7) input"
    assert str(exc) == "server 's': bad (JSON-RPC error 7) input (JSON-RPC error -32602)"


def test_an_unknown_name_is_invalid_params_and_anything_else_an_internal_error() -> None:
    unknown = to_mcp_error(UnknownName("Unknown tool: x"))
    other = to_mcp_error(UpstreamTimeout("no answer", server="s"))
    assert isinstance(unknown, MCPError)
    assert isinstance(other, MCPError)
    assert (unknown.error.code, unknown.error.message) == (-32602, "Unknown tool: x")
    assert (other.error.code, other.error.message) == (-32603, "server 's': no answer")


def test_an_error_a_handler_names_by_its_code_carries_that_code_message_and_data() -> None:
    named = mcp_error(-32001, "Failed to retrieve task: Task not found", {"taskId": "t1"})
    bare = mcp_error(-32602, "Unknown tool: x")
    assert isinstance(named, MCPError)
    assert isinstance(bare, MCPError)
    assert (named.error.code, named.error.message, named.error.data) == (
        -32001,
        "Failed to retrieve task: Task not found",
        {"taskId": "t1"},
    )
    assert (bare.error.code, bare.error.message, bare.error.data) == (-32602, "Unknown tool: x", None)
