"""The MCP SDK's private parts that hintgate relies on, each read here and nowhere else.

hintgate serves MCP through the SDK's low-level server, and answers some
requests beside it: streamable HTTP's fast path (`server.http_fast`), the
stdio calls taken off the pipe (`server.direct`), a session's first-request
deadline (`server.first_request`) and the check that a waiting call's caller
is still there (`server.liveness`). Those need a few things the SDK keeps
private: the request-scoped channel and the connection of its per-request
`ServerSession`, the session manager's HTTP transports, a transport's
per-request streams and idle clock, and the dispatcher's keyword that ties an
outgoing message to the request it belongs to.

Each is read by one small function below and listed in `RELIED_ON`;
`tests/server/test_sdk.py` checks every entry against the installed `mcp`
with real objects and fails naming the attribute when a release moves one.
A missing attribute fails here loudly (`AttributeError`), never silently as
a default. The SDK range in pyproject.toml is the releases that test has
passed on; `tests/test_architecture.py` keeps every other module from
reading the SDK's private attributes.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import anyio

if TYPE_CHECKING:
    from mcp.server.connection import Connection
    from mcp.server.streamable_http import StreamableHTTPServerTransport
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

__all__ = [
    "RELIED_ON",
    "ServingHold",
    "build_handshake_validators",
    "connection_of",
    "defer_wire_validators",
    "end_http_session",
    "http_transport",
    "idle_scope",
    "lifespan_state",
    "notify_related",
    "owned_session",
    "quiet",
    "request_channel",
    "request_streams",
    "send_related_request",
    "session_manager_of",
    "shorten_idle",
]

_SESSION = "mcp.server.session.ServerSession"
_SERVER = "mcp.server.lowlevel.server.Server"
_MANAGER = "mcp.server.streamable_http_manager.StreamableHTTPSessionManager"
_TRANSPORT = "mcp.server.streamable_http.StreamableHTTPServerTransport"
_DISPATCHER = "mcp.shared.jsonrpc_dispatcher.JSONRPCDispatcher"

RELIED_ON: tuple[tuple[str, str], ...] = (
    (_SESSION, "_request_outbound"),
    (_SESSION, "_connection"),
    (_SERVER, "_session_manager"),
    (_MANAGER, "_server_instances"),
    (_MANAGER, "_session_owners"),
    (_MANAGER, "_lifespan_state"),
    (_TRANSPORT, "_request_streams"),
    (_TRANSPORT, "_idle_timeout"),
    (_TRANSPORT, "_requests_in_flight"),
    (_TRANSPORT, "idle_scope"),  # public, but only while the session runs: read without a default all the same
    (f"{_DISPATCHER}.send_raw_request", "_related_request_id"),  # a keyword parameter
    (f"{_DISPATCHER}.notify", "_related_request_id"),
)
"""(where, attribute) for every private part read here: a class's instance attribute or a method's keyword."""


# -- the wire models' validators -----------------------------------------------


def defer_wire_validators() -> None:
    """Have the SDK's wire models (each protocol era's shape of every message) build their validators when first
    used, not when their classes are made.

    The SDK checks a message against the wire model of the version its client speaks: a client of one era never
    uses the other era's models, nor most of its own. Built as the classes are made, both eras' validators were
    about half of importing the SDK's types (0.08 s of CPU of 0.16 s), on the path to a gateway's first listing.
    Called before the SDK's types are imported (`hintgate.cli.serve`'s background imports when they import the
    SDK, else the stdio transport as it first imports them: `hintgate.server.stdio`); called after, it changes
    nothing. What a model validates is the same either way.
    """
    from mcp_types._wire_base import WireModel

    WireModel.model_config["defer_build"] = True


def build_handshake_validators() -> None:
    """Build now the validators a client of the handshake era checks its first messages with (`initialize`,
    `notifications/initialized`, `tools/list`) and the answer to its `initialize` is shaped with, which
    `defer_wire_validators` left for their first use.

    Called while the upstreams start (`hintgate.cli.serve.prepare_first_listing`): built at the first message,
    they held up the first listing, which the gateway answers only once its upstreams have listed their tools.
    """
    from mcp_types.methods import serialize_server_result, validate_client_notification, validate_client_request
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    version = HANDSHAKE_PROTOCOL_VERSIONS[-1]  # every handshake version is checked by the same models
    hello = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "hintgate", "version": "0"}}
    validate_client_request("initialize", version, hello)
    validate_client_notification("notifications/initialized", version, None)
    validate_client_request("tools/list", version, None)
    welcome = {"protocolVersion": version, "capabilities": {}, "serverInfo": {"name": "hintgate", "version": "0"}}
    serialize_server_result("initialize", version, welcome)


# -- a request's session -------------------------------------------------------


def request_channel(session: Any) -> Any:
    """The request-scoped channel of a request's session (the SDK's `ServerSession`).

    On streamable HTTP it rides the request's own response stream. The SDK
    offers only typed requests on the session; hintgate relays an upstream's
    JSON as it came, through the channel's `send_raw_request` and `notify`.
    """
    return session._request_outbound


def connection_of(session: Any) -> Connection:
    """The connection a request's session belongs to.

    The SDK builds a session object per request around its `Connection`,
    which lives as long as the client's connection (a 2026-07-28 request gets
    a connection of its own).
    """
    connection: Connection = session._connection
    return connection


# -- streamable HTTP's sessions ------------------------------------------------


def session_manager_of(server: Any) -> StreamableHTTPSessionManager | None:
    """The low-level server's streamable HTTP session manager, None until its HTTP app is built."""
    manager: StreamableHTTPSessionManager | None = server._session_manager
    return manager


def http_transport(manager: StreamableHTTPSessionManager, session_id: str) -> StreamableHTTPServerTransport | None:
    """The transport of a live HTTP session by its `Mcp-Session-Id`, None when the manager has none."""
    return manager._server_instances.get(session_id)


def owned_session(manager: StreamableHTTPSessionManager, session_id: str) -> bool:
    """Whether the session is bound to an authorization context, which only the SDK's path checks."""
    return session_id in manager._session_owners


def lifespan_state(manager: StreamableHTTPSessionManager) -> Any:
    """What the server's lifespan yielded, as the manager hands it to the requests it serves."""
    return manager._lifespan_state


def request_streams(transport: StreamableHTTPServerTransport) -> dict[Any, Any]:
    """A transport's per-request streams by request id: its message router writes a request's messages there."""
    streams: dict[Any, Any] = transport._request_streams
    return streams


# -- an HTTP session's idle clock ----------------------------------------------


def idle_scope(transport: StreamableHTTPServerTransport) -> anyio.CancelScope | None:
    """The scope whose deadline ends an idle session; None when the session has no idle timeout."""
    return transport.idle_scope


def quiet(transport: StreamableHTTPServerTransport) -> bool:
    """Whether no request (an open GET stream included) holds the session now."""
    return not transport._requests_in_flight


def shorten_idle(transport: StreamableHTTPServerTransport, seconds: float) -> None:
    """End the session within `seconds` from now unless a request comes first.

    Left alone: a session without an idle clock, one ending already, and one
    a request (a GET stream) holds now.
    """
    idle = idle_scope(transport)
    if idle is None or idle.cancel_called or not quiet(transport):
        return
    idle.deadline = min(idle.deadline, anyio.current_time() + seconds)


async def end_http_session(transport: StreamableHTTPServerTransport) -> None:
    """End a live HTTP session now, as its idle timeout would: its server task stops, the manager forgets it,
    and its id answers 404 from then on."""
    idle = idle_scope(transport)
    if idle is not None and not idle.cancel_called:
        idle.cancel()
    else:
        await transport.terminate()


class ServingHold:
    """Holds an HTTP session open while a request is served beside the SDK, as the SDK's transport does for its own.

    The SDK counts the requests in flight and suspends the idle countdown while
    there are any; a request answered on the fast path counts the same way.
    """

    def __init__(self, transport: StreamableHTTPServerTransport) -> None:
        self._transport = transport
        self._idle = idle_scope(transport)
        self._timeout: float | None = transport._idle_timeout

    def __enter__(self) -> None:
        if self._idle is not None and self._timeout is not None:
            self._transport._requests_in_flight += 1
            self._idle.deadline = math.inf

    def __exit__(self, *exc: object) -> None:
        if self._idle is not None and self._timeout is not None:
            self._transport._requests_in_flight -= 1
            if not self._transport._requests_in_flight:
                # anyio.current_time() on asyncio (the only loop this path runs on), without its backend lookup
                self._idle.deadline = asyncio.get_running_loop().time() + self._timeout


# -- messages tied to a request ------------------------------------------------


async def send_related_request(outbound: Any, method: str, params: Any, opts: Any, request_id: Any) -> dict[str, Any]:
    """Send a request to the client through a connection's dispatcher, on the stream of request `request_id`.

    The dispatcher correlates the client's answer; the keyword that routes
    the request onto the originating request's stream is the dispatcher's own.
    """
    answer: dict[str, Any] = await outbound.send_raw_request(method, params, opts, _related_request_id=request_id)
    return answer


async def notify_related(
    outbound: Any, method: str, params: Mapping[str, Any] | None, opts: Any, request_id: Any
) -> None:
    """Send a notification to the client through a connection's dispatcher, on the stream of request `request_id`."""
    await outbound.notify(method, params, opts, _related_request_id=request_id)
