"""The stage that runs a call on its source: forwarded once, and retried once when that is safe.

A transient failure (the server restarted, the connection closed, a timeout) is retried once, and only
for a call that is safe to repeat (`policy.decide.should_retry`: read-only, or idempotent), once its
source is up again; the failed attempt is a call of its own on record, the retry names it as its parent.
Other failures become tool errors that say what failed; a server's own JSON-RPC error is raised as it came.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hintgate.errors import UpstreamClosed, UpstreamDown, UpstreamError, UpstreamRequestError, UpstreamTimeout
from hintgate.policy.decide import failure_kind, should_retry
from hintgate.random_ids import random_id
from hintgate.results import result_problem, server_down_error, tool_error
from hintgate.sources.base import SourceState

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from hintgate.outcome import CallAttempt
    from hintgate.pipeline.deciding import Decided
    from hintgate.pipeline.recording import Recording
    from hintgate.policy.principal import Principal
    from hintgate.request_context import RequestContext
    from hintgate.sources.base import CallContext, Source, SourceStatus

__all__ = ["Forwarding"]

_RETRY_WAIT = 10.0  # seconds a retry waits for a restarted source to come back up


@dataclass(frozen=True, slots=True, eq=False)
class Forwarding:
    """Forwards an allowed (or approved) call to its source and returns the source's result JSON.

    Attributes:
        sources: the sources by name (the gateway's own mapping: it may change as sources come and go).
        modern_versions: protocol versions whose clients are asked in the result (`InputRequiredResult`).
        client_for: gives the client side of a request's call: what sources report progress and relay
            requests through.
        recording: records a failed attempt that is retried.
    """

    sources: Mapping[str, Source]
    modern_versions: frozenset[str]
    client_for: Callable[[RequestContext | None], CallContext]
    recording: Recording

    async def forward(self, call: Decided, params: Mapping[str, Any], attempt: CallAttempt) -> dict[str, Any]:
        """The source's answer to the call (a tool error when it failed); the time it took goes on `attempt`.

        Raises:
            UpstreamRequestError: the server answered with its own JSON-RPC error.
            InputRequired: the source asks the client something first (2026-07-28 clients).
        """
        ctx, entry = call.ctx, call.entry
        source = self.sources[entry.server]
        name = entry.name
        client = self.client_for(ctx)
        if ctx is not None and ctx.protocol_version in self.modern_versions:
            client = _AskedInResult(client, params)
        given = params.get("_meta")
        meta = given if isinstance(given, Mapping) else None
        for tries in (1, 2):
            began = time.perf_counter()
            try:
                result = await source.call_tool(entry.upstream_name, call.arguments, meta=meta, context=client)
            except UpstreamRequestError:
                attempt.add_upstream_time(began)
                raise
            except UpstreamError as exc:
                attempt.add_upstream_time(began)
                # Transient failures are retried once, only for tools that are safe to repeat.
                # A closed connection leaves the source's status UP until it notices: the retry waits for a new one.
                stale = source.status if isinstance(exc, UpstreamClosed) else None
                safe = should_retry(call.facts, failure_kind(exc))
                if tries == 1 and safe and await self._back_up(entry.server, stale):
                    # The failed attempt is a call of its own on record; the retry names it as its parent.
                    retried = self.recording.outcome(call, None, f"{exc} (retried)", attempt)
                    await self.recording.record(call.session, retried)
                    attempt.parent_call_id, attempt.call_id = attempt.call_id, random_id()
                    attempt.execution_type, attempt.upstream_ms = "retry", None
                    attempt.started, attempt.started_at = time.perf_counter(), datetime.now(UTC)
                    continue
                if isinstance(exc, UpstreamDown):
                    return server_down_error(name, entry.server, exc.detail)
                if isinstance(exc, UpstreamTimeout):
                    return tool_error(
                        f"The tool {name!r} did not answer within {source.call_timeout:g} s "
                        f"(server {entry.server!r}); the call was cancelled."
                    )
                return tool_error(f"The tool {name!r} failed: server {entry.server!r} {exc.detail}.")
            attempt.add_upstream_time(began)
            problem = result_problem(result)
            if problem is not None:
                # Passed on, it would fail in the client with an error that names neither the tool nor the server.
                logger.warning(
                    "server %r: tools/call of %r: the answer is not a CallToolResult: %s",
                    entry.server,
                    entry.upstream_name,
                    problem,
                )
                return tool_error(
                    f"The tool {name!r} failed: server {entry.server!r} answered with something that is not "
                    f"a tool result ({problem})."
                )
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    async def _back_up(self, server: str, stale: SourceStatus | None) -> bool:
        """Wait (bounded) for a source to be up again, on a status other than `stale`; True when it is."""
        source = self.sources[server]
        deadline = time.monotonic() + min(_RETRY_WAIT, source.call_timeout)
        while time.monotonic() < deadline:
            if source.status.state is SourceState.UP and source.status is not stale:
                return True
            await asyncio.sleep(0.05)
        return False


class _AskedInResult:
    """The client side of a 2026-07-28 call: a source's questions go out in the result, answers come on the retry."""

    def __init__(self, client: CallContext, params: Mapping[str, Any]) -> None:
        self._client = client
        responses = params.get("inputResponses")
        self._responses: Mapping[str, Any] = responses if isinstance(responses, Mapping) else {}

    @property
    def session_key(self) -> object:
        return self._client.session_key

    @property
    def principal(self) -> Principal | None:
        return self._client.principal

    @property
    def elicits_url(self) -> bool:
        return self._client.elicits_url

    @property
    def asks_in_result(self) -> bool:
        return True

    def declares(self, extension: str) -> bool:
        return self._client.declares(extension)

    def input_response(self, key: str) -> Mapping[str, Any] | None:
        answer = self._responses.get(key)
        return answer if isinstance(answer, Mapping) else None

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        await self._client.progress(progress, total, message)

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        return await self._client.client_request(method, params)

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        await self._client.client_notify(method, params)
