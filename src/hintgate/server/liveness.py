"""Whether the result of a call can still reach its caller.

A streamable HTTP call of the handshake era answers on its own response
stream. When the client drops that stream and no event store could replay the
result later, nobody can receive it: a call waiting for a person should then
be withdrawn rather than run. Cancellation and closed sessions need no probe:
they cancel the call's task.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hintgate.server import sdk

__all__ = ["caller_probe"]


def caller_probe(server: Any, ctx: Any) -> Callable[[], bool] | None:
    """A check that the call's response stream is still open, None when hintgate cannot tell or need not.

    Args:
        server: the SDK's low-level server (its session manager holds the HTTP transports).
        ctx: the call's request context.
    """
    request = getattr(ctx, "request", None)
    if request is None or server is None:
        return None  # stdio: a closed stdin ends the session, which cancels the call
    manager = sdk.session_manager_of(server)
    if manager is None or manager.event_store is not None:
        return None  # no HTTP app (a test's server), or resumable: a client that reconnects can still get the result
    session_id = request.headers.get("mcp-session-id")
    transport = sdk.http_transport(manager, session_id) if session_id else None
    if transport is None or ctx.request_id is None:
        return None  # a stateless (2026-07-28) request: its stream ending cancels the call
    stream_key = str(ctx.request_id)
    streams = sdk.request_streams(transport)

    def alive() -> bool:
        return not transport.is_terminated and stream_key in streams

    return alive
