"""The client that made a call, as a source sees it while the call runs (`sources.base.CallContext`).

A source reports progress, relays an upstream's log messages, and relays its
requests (elicitation, sampling, roots) to the client through it. The
pipeline gets one per call from the gateway (`ToolCalls(client_for=ClientCall)`),
so it never reads the SDK's session itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from hintgate.errors import UpstreamRequestError
from hintgate.policy.principal import Principal, principal_of
from hintgate.request_context import RequestContext
from hintgate.server import sdk

__all__ = ["ClientCall"]

_CAPABILITY = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}
"""The client capability a request to the client needs."""


class ClientCall:
    """The client side of one call, for sources that report progress or ask questions."""

    def __init__(self, ctx: RequestContext | None) -> None:
        self._ctx = ctx

    @property
    def session_key(self) -> object:
        """The client's connection (itself for a call without a client), to tell clients apart.

        The SDK builds a session object per request around the connection, which is
        what lasts as long as the client's connection; a stateless 2026-07-28 request
        has one of its own, so each such call counts as its own client.
        """
        if self._ctx is None:
            return self
        return sdk.connection_of(self._ctx.session)

    @property
    def principal(self) -> Principal | None:
        """Who made this request, as the web layer verified its token (None on stdio or without identity)."""
        request = self._ctx.request if self._ctx is not None else None
        return principal_of(getattr(request, "scope", None)) if request is not None else None

    @property
    def elicits_url(self) -> bool:
        """Whether the client declared URL-mode elicitation."""
        caps = self._ctx.session.client_capabilities if self._ctx is not None else None
        elicitation = getattr(caps, "elicitation", None) if caps is not None else None
        return getattr(elicitation, "url", None) is not None

    @property
    def asks_in_result(self) -> bool:
        """False: the pipeline gives a 2026-07-28 call its own client side, which asks in the result."""
        return False

    def declares(self, extension: str) -> bool:
        """Whether the client declared `extension` (at initialize, or on this request in 2026-07-28)."""
        caps = self._ctx.session.client_capabilities if self._ctx is not None else None
        extensions = getattr(caps, "extensions", None) if caps is not None else None
        return isinstance(extensions, Mapping) and isinstance(extensions.get(extension), Mapping)

    def input_response(self, key: str) -> Mapping[str, Any] | None:
        """None: see `asks_in_result`."""
        return None

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Report progress to the client (a no-op unless it asked for progress)."""
        if self._ctx is not None:
            with contextlib.suppress(Exception):
                await self._ctx.session.report_progress(progress, total, message)

    def refusal(self, method: str) -> str | None:
        """Why `method` may not be sent to this client (it did not declare the capability it needs), or None."""
        if self._ctx is None:
            return "there is no client to ask"
        caps = self._ctx.session.client_capabilities
        needed = _CAPABILITY.get(method)
        if needed is not None and (caps is None or getattr(caps, needed, None) is None):
            return f"the client did not declare the {needed} capability"
        return None

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Relay a request to the client; refused when it did not declare the capability."""
        refusal = self.refusal(method)
        if refusal is not None:
            raise UpstreamRequestError(refusal if self._ctx is not None else f"{method}: no client to ask", code=-32601)
        assert self._ctx is not None
        session = self._ctx.session
        try:
            result: dict[str, Any] = await sdk.request_channel(session).send_raw_request(method, params)
        except Exception as exc:
            code = getattr(exc, "code", -32603)
            raise UpstreamRequestError(f"the client could not answer {method}: {exc}", code=code) from exc
        return result

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        """Relay a notification to the client."""
        if self._ctx is not None:
            with contextlib.suppress(Exception):
                await sdk.request_channel(self._ctx.session).notify(method, params)
