"""What hintgate says first to an upstream server: its `initialize` request.

The same request opens every connection (`hintgate.sources.connection`), and a stdio server spawned ahead of
the gateway (`hintgate.sources.processes.prestarting`) is given it on its stdin at once: the server answers it
as soon as it has started, while the gateway is still importing its own modules, and the connection that takes
the process reads the answer waiting in the pipe instead of sending the request then and waiting for it.
"""

from __future__ import annotations

from typing import Any

from hintgate import __version__
from hintgate.sources.resolution import RESOLUTION

__all__ = ["CLIENT_CAPABILITIES", "FIRST_REQUEST_ID", "HANDSHAKE_VERSION", "initialize_request"]

HANDSHAKE_VERSION = "2025-11-25"
"""The protocol revision hintgate asks upstreams for (the newest reachable by the initialize handshake)."""

CLIENT_CAPABILITIES: dict[str, Any] = {
    # hintgate relays these requests to the client whose call caused them.
    "elicitation": {"form": {}, "url": {}},
    "sampling": {},
    "roots": {"listChanged": True},
    # So a server that resolves per call marks its tools and answers tools/resolve (the draft's handshake form).
    "extensions": {RESOLUTION: {}},
}
"""The capabilities hintgate declares to every upstream server."""

FIRST_REQUEST_ID = 1
"""The id of a connection's first request, its `initialize`."""


def initialize_request(capabilities: dict[str, Any], request_id: int = FIRST_REQUEST_ID) -> dict[str, Any]:
    """The `initialize` request declaring `capabilities`, as JSON-RPC with `request_id`."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": HANDSHAKE_VERSION,
            "capabilities": capabilities,
            "clientInfo": {"name": "hintgate", "version": __version__},
        },
    }
