"""What hintgate reads of a request's context: the fields of the SDK's, as Protocols.

The SDK hands handlers its own `ServerRequestContext`; the direct stdio path
(`hintgate.server.direct`) builds a lighter one around the SDK's session. Both
satisfy these Protocols (what else of the SDK's session hintgate needs, it
reads through `hintgate.server.sdk`), so the handlers, the session tracker and the call pipeline are
typed against what they use rather than against `Any`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

__all__ = ["RequestContext", "RequestSession"]


class RequestSession(Protocol):
    """The session side of a request: who the client is and how to reach it."""

    @property
    def client_params(self) -> Any:
        """The client's `initialize` params (or the request envelope's), an SDK model."""

    @property
    def client_capabilities(self) -> Any:
        """What the client declared it supports, an SDK model (None before the handshake)."""

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Tell the client how far the request has got (a no-op unless it asked)."""


class RequestContext(Protocol):
    """One request as hintgate sees it.

    Attributes:
        session: the client's session.
        protocol_version: the protocol revision the request speaks.
        request_id: its JSON-RPC id (None for a notification).
        method: the JSON-RPC method.
        params: its raw params, when the request was not validated into a model.
        request: the HTTP request it came in (None on stdio).
    """

    @property
    def session(self) -> RequestSession: ...

    @property
    def protocol_version(self) -> str: ...

    @property
    def request_id(self) -> Any: ...

    @property
    def method(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any] | None: ...

    @property
    def request(self) -> Any: ...
