"""The SDK's `requestState` boundary, with its cryptography loaded by the first request that needs it.

On the 2026-07-28 protocol an approval question goes out in an
`InputRequiredResult` whose `requestState` the MCP SDK's `RequestStateBoundary`
seals (AES-256-GCM, bound to the method, the tool, its arguments, the person
and the audience), and the answer's echo is verified and opened before any
handler sees it. The boundary's module imports the `cryptography` package
(8.7 MB of a gateway's memory); most requests need none of it: a handshake-era
call never reaches the boundary, and a 2026-07-28 call that carries no
`requestState` and is not answered with an `InputRequiredResult` passes it untouched.

`LazyStateBoundary` stands where the SDK's boundary stood in the server's
middleware, and builds it (importing its module off the event loop, once,
however many requests need it at the same time) at the first request that
carries a `requestState` or is answered with an `InputRequiredResult`; that
request and every later one then go through the SDK's boundary as they would
have from the start. Nothing is decided here: whether a request carries state
is the SDK boundary's own test, and a state on the way in or out is only ever
opened or sealed by the SDK's boundary; when it cannot be built the request fails.
The key is taken (or, with none set, made) when the server is built, as before.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import anyio
from mcp_types.methods import INPUT_REQUIRED_METHODS, is_input_required

__all__ = ["LazyStateBoundary"]

_MIN_KEY_BYTES = 32
"""The shortest secret the SDK's codec accepts (`AESGCMRequestStateCodec`): checked as the server is built."""


class LazyStateBoundary:
    """Server middleware: the SDK's `RequestStateBoundary`, built by the first request that needs it.

    Args:
        state_key: the secret that seals `requestState`; None or empty for one made now, held by this
            process only (as the SDK's `RequestStateSecurity.ephemeral`).
        audience: the audience sealed into every state and required of every echo.

    Raises:
        ValueError: `state_key` is shorter than the 32 bytes the SDK's codec requires.
    """

    def __init__(self, state_key: str | None, *, audience: str) -> None:
        if state_key and len(state_key.encode()) < _MIN_KEY_BYTES:
            raise ValueError(f"the requestState key must be at least {_MIN_KEY_BYTES} bytes of secret randomness")
        self._key: str | bytes = state_key or os.urandom(_MIN_KEY_BYTES)
        self._audience = audience
        self._boundary: Any = None
        self._building = threading.Lock()

    @property
    def built(self) -> bool:
        """Whether the SDK's boundary (and so the cryptography) has been loaded."""
        return self._boundary is not None

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if self._boundary is not None:
            return await self._boundary(ctx, call_next)
        if ctx.method not in INPUT_REQUIRED_METHODS:
            return await call_next(ctx)
        if ctx.params is not None and ctx.params.get("requestState") is not None:
            # A state to verify: the SDK's boundary opens it (or refuses it) before anything else runs.
            return await (await self._sdk_boundary())(ctx, call_next)
        result = await call_next(ctx)
        if not is_input_required(result):
            return result
        # A question going out: the SDK's boundary seals its state (no state came in, so it opens none).

        async def answered(_ctx: Any) -> Any:
            return result

        return await (await self._sdk_boundary())(ctx, answered)

    async def _sdk_boundary(self) -> Any:
        if self._boundary is None:
            # Importing the cryptography takes tens of milliseconds: not on the event loop.
            await anyio.to_thread.run_sync(self._build)
        return self._boundary

    def _build(self) -> None:
        with self._building:  # two first uses at once: one builds, the other waits and takes the same
            if self._boundary is not None:
                return
            from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity

            security = RequestStateSecurity(keys=[self._key])
            self._boundary = RequestStateBoundary(security, default_audience=self._audience)
