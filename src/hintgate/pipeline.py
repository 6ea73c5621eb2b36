"""The life of one tools/call: decide, ask if need be, forward, retry what may be retried, record.

allow: forwarded. deny: a tool error whose text gives the reason; the source
is never called. ask: the client is asked through MCP elicitation when it
declared support (`elicitation/create` on 2025-11-25 connections, an
`InputRequiredResult` whose sealed `requestState` it cannot forge on
2026-07-28 ones); otherwise, or when the policy says so, the call waits in the
approval queue that the REST API and the dashboard answer. No answer in time
means deny. Every decision, with who answered, how and how long it took, goes
on the call's record.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from hintgate.errors import UpstreamDown, UpstreamError, UpstreamRequestError, UpstreamTimeout
from hintgate.hints.catalog import CatalogEntry
from hintgate.policy.approvals import Answer, ApprovalQueue, Outcome
from hintgate.policy.asking import (
    APPROVAL_KEY,
    ARGUMENTS_SHOWN,
    answer_from_elicitation,
    approval_form,
    arguments_text,
    question,
)
from hintgate.policy.decide import CallFacts, Decision, SessionState, decide, failure_kind, should_retry, warnings
from hintgate.policy.rules import PolicySettings, Rule, Verdict
from hintgate.server.sessions import ClientSession
from hintgate.sources.base import SourceState

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["ClientCall", "ToolCalls", "tool_error"]

_RETRY_WAIT = 10.0  # seconds a retry waits for a restarted source to come back up


def tool_error(text: str) -> dict[str, Any]:
    """A `CallToolResult` that reports a failure to the model (`isError` true)."""
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _error_text(result: Mapping[str, Any]) -> str:
    content = result.get("content")
    if isinstance(content, list):
        texts = [str(c["text"]) for c in content if isinstance(c, Mapping) and isinstance(c.get("text"), str)]
        if texts:
            return "\n".join(texts)[:2000]
    return "the tool reported an error"


def _request_channel(session: Any) -> Any:
    """The request-scoped channel of a call: on streamable HTTP it rides the call's own response stream.

    The SDK keeps it as the session's outbound and offers only typed requests
    on it; hintgate relays the upstream's JSON as it came.
    """
    return session._request_outbound


class ClientCall:
    """The client side of one call, for sources that report progress or ask questions."""

    def __init__(self, ctx: Any) -> None:
        self._ctx = ctx

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        """Report progress to the client (a no-op unless it asked for progress)."""
        if self._ctx is not None:
            with contextlib.suppress(Exception):
                await self._ctx.session.report_progress(progress, total, message)

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        """Relay a request to the client; refused when it did not declare the capability."""
        capability = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots"}
        if self._ctx is None:
            raise UpstreamRequestError(f"{method}: no client to ask", code=-32601)
        session = self._ctx.session
        caps = session.client_capabilities
        needed = capability.get(method)
        if needed is not None and (caps is None or getattr(caps, needed, None) is None):
            raise UpstreamRequestError(f"the client did not declare the {needed} capability", code=-32601)
        try:
            result: dict[str, Any] = await _request_channel(session).send_raw_request(method, params)
        except Exception as exc:
            code = getattr(exc, "code", -32603)
            raise UpstreamRequestError(f"the client could not answer {method}: {exc}", code=code) from exc
        return result

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        """Relay a notification to the client."""
        if self._ctx is not None:
            with contextlib.suppress(Exception):
                await _request_channel(self._ctx.session).notify(method, params)


@dataclass(slots=True)
class _Attempt:
    """What one call went through, for its record."""

    decision: Decision
    actor: str | None = None
    approval: str | None = None
    asked_via: str | None = None
    waited_ms: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            **self.decision.to_json(),
            "approver": self.actor,
            "approval": self.approval,
            "asked_via": self.asked_via,
            "waited_ms": None if self.waited_ms is None else round(self.waited_ms, 3),
        }


class ToolCalls:
    """Runs tools/call for a gateway under its policy.

    Attributes:
        settings: the policy settings in force (the REST API may replace them).
        rules: the policy rules in force.
        approvals: calls waiting for a person.
    """

    def __init__(self, gateway: Gateway, *, settings: PolicySettings, rules: tuple[Rule, ...]) -> None:
        self._gateway = gateway
        self.settings = settings
        self.rules = rules
        self.approvals = ApprovalQueue()

    async def __call__(
        self, ctx: Any, entry: CatalogEntry, arguments: Mapping[str, Any] | None, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        """Decide, ask, forward and record one call; returns the result JSON for the client."""
        gateway = self._gateway
        session = gateway.sessions.for_request(ctx) if ctx is not None else None
        state: SessionState = session.policy if session is not None else SessionState()
        started = time.perf_counter()
        started_at = datetime.now(UTC)
        facts = CallFacts.from_entry(entry, arguments)
        now = time.time()
        attempt = _Attempt(decide(facts, state, self.settings, self.rules, now=now))
        verdict = attempt.decision.verdict
        result: dict[str, Any] | None = None
        error: str | None = None
        try:
            if verdict is Verdict.ASK:
                answered = await self._ask(ctx, entry, facts, attempt, session, params)
                if isinstance(answered, dict):  # a 2026-07-28 InputRequiredResult: the question goes out
                    return answered
                if not answered.approved:
                    result = tool_error(self._denial(entry, attempt, answered))
                    return result
                if answered.answer is Answer.APPROVE_SESSION:
                    state.approve_for_session(entry.name)
                state.record_approval(entry.name, arguments or {}, now)
            elif verdict is Verdict.DENY:
                result = tool_error(f"hintgate denied this call of {entry.name!r}: {attempt.decision.reason}")
                return result
            elif facts.idempotent and not facts.read_only:
                state.record_approval(entry.name, arguments or {}, now)
            result = await self._forward(ctx, entry, facts, arguments, params.get("_meta"), session, attempt)
            if facts.open_world and not result.get("isError") and result.get("content"):
                state.mark_result(facts, self.settings)
            return result
        except Exception as exc:
            error = str(exc)
            raise
        except asyncio.CancelledError:
            # It may have reached its server: the record says so rather than losing it.
            error = "cancelled before it finished (the client cancelled it, or the gateway stopped)"
            raise
        finally:
            if result is not None or error is not None:
                if session is not None:
                    session.calls += 1
                if gateway.store is not None:
                    # Durable recording: the result goes back once its record is committed.
                    await self._record(entry, ctx, session, arguments, result, error, started_at, started, attempt)

    # -- asking ------------------------------------------------------------

    async def _ask(
        self,
        ctx: Any,
        entry: CatalogEntry,
        facts: CallFacts,
        attempt: _Attempt,
        session: ClientSession | None,
        params: Mapping[str, Any],
    ) -> Outcome | dict[str, Any]:
        shown = warnings(facts, self.settings) if self.settings.show_hint_warnings else []
        title = entry.tool.display_name
        text = question(
            title=title,
            title_origin=entry.tool.title_origin.value,
            tool=entry.name,
            server=entry.server,
            arguments=facts.arguments,
            reason=attempt.decision.reason,
            warnings=shown,
        )
        started = time.perf_counter()
        modern = ctx is not None and ctx.protocol_version in self._gateway.modern_versions
        # Arguments too long to show whole in a client's question wait in the queue, where they are shown whole.
        if len(arguments_text(facts.arguments)) <= ARGUMENTS_SHOWN and self._can_elicit(ctx):
            if modern:
                responses = params.get("inputResponses")
                if params.get("requestState") == APPROVAL_KEY and isinstance(responses, Mapping):
                    # The SDK's RequestStateBoundary verified the sealed state before
                    # this runs: the client cannot answer a question it was not asked.
                    attempt.asked_via = "input-required"
                    return self._answered(attempt, answer_from_elicitation(responses.get(APPROVAL_KEY)), started)
                return {
                    "resultType": "input_required",
                    "inputRequests": {APPROVAL_KEY: {"method": "elicitation/create", "params": approval_form(text)}},
                    "requestState": APPROVAL_KEY,
                }
            attempt.asked_via = "elicitation"
            try:
                reply = await asyncio.wait_for(
                    _request_channel(ctx.session).send_raw_request("elicitation/create", approval_form(text)),
                    self.settings.approval_timeout,
                )
            except TimeoutError:
                return self._timed_out(attempt, started)
            except Exception:
                reply = None
            return self._answered(attempt, answer_from_elicitation(reply), started)
        attempt.asked_via = "queue"
        outcome = await self.approvals.wait(
            tool=entry.name,
            title=title,
            title_origin=entry.tool.title_origin.value,
            server=entry.server,
            arguments=facts.arguments,
            reason=attempt.decision.reason,
            warnings=shown,
            session_id=session.id if session else None,
            client_name=session.client_name if session else None,
            timeout=self.settings.approval_timeout,
        )
        attempt.actor, attempt.waited_ms = outcome.actor, outcome.waited_ms
        attempt.approval = _approval_name(outcome.answer)
        return outcome

    def _can_elicit(self, ctx: Any) -> bool:
        if ctx is None or self.settings.ask_via == "queue":
            return False
        caps = ctx.session.client_capabilities
        elicitation = getattr(caps, "elicitation", None) if caps is not None else None
        if elicitation is None:
            return False
        # An empty elicitation capability means form mode (the spec's default).
        return getattr(elicitation, "form", None) is not None or getattr(elicitation, "url", None) is None

    def _answered(self, attempt: _Attempt, answer: Answer, started: float) -> Outcome:
        waited = (time.perf_counter() - started) * 1000
        attempt.actor, attempt.waited_ms, attempt.approval = "client", waited, _approval_name(answer)
        return Outcome(answer, "client", waited)

    def _timed_out(self, attempt: _Attempt, started: float) -> Outcome:
        waited = (time.perf_counter() - started) * 1000
        attempt.actor, attempt.waited_ms, attempt.approval = "timeout", waited, "denied"
        return Outcome(Answer.DENY, "timeout", waited, timed_out=True)

    def _denial(self, entry: CatalogEntry, attempt: _Attempt, outcome: Outcome) -> str:
        if outcome.timed_out:
            how = f"nobody answered within {self.settings.approval_timeout:g} s, so it was denied"
        else:
            how = f"it was denied ({outcome.actor})"
        return f"hintgate asked before running {entry.name!r} and {how}. Why it asked: {attempt.decision.reason}"

    # -- forwarding --------------------------------------------------------

    async def _forward(
        self,
        ctx: Any,
        entry: CatalogEntry,
        facts: CallFacts,
        arguments: Mapping[str, Any] | None,
        meta: Any,
        session: ClientSession | None,
        attempt: _Attempt,
    ) -> dict[str, Any]:
        source = self._gateway.sources[entry.server]
        name = entry.name
        client = ClientCall(ctx)
        meta = meta if isinstance(meta, Mapping) else None
        for tries in (1, 2):
            try:
                return await source.call_tool(entry.upstream_name, arguments, meta=meta, context=client)
            except UpstreamRequestError:
                raise
            except UpstreamError as exc:
                # Transient failures are retried once, only for tools that are safe to repeat.
                if tries == 1 and should_retry(facts, failure_kind(exc)) and await self._back_up(entry.server):
                    continue
                if isinstance(exc, UpstreamDown):
                    return tool_error(f"The tool {name!r} is unavailable: server {exc.detail}.")
                if isinstance(exc, UpstreamTimeout):
                    return tool_error(
                        f"The tool {name!r} did not answer within {source.call_timeout:g} s "
                        f"(server {entry.server!r}); the call was cancelled."
                    )
                return tool_error(f"The tool {name!r} failed: server {entry.server!r} {exc.detail}.")
        raise AssertionError("unreachable")  # pragma: no cover

    async def _back_up(self, server: str) -> bool:
        """Wait (bounded) for a source to be up again; True when it is."""
        source = self._gateway.sources[server]
        deadline = time.monotonic() + min(_RETRY_WAIT, source.call_timeout)
        while time.monotonic() < deadline:
            if source.status.state is SourceState.UP:
                return True
            await asyncio.sleep(0.05)
        return False

    # -- recording ---------------------------------------------------------

    async def _record(
        self,
        entry: CatalogEntry,
        ctx: Any,
        session: ClientSession | None,
        arguments: Mapping[str, Any] | None,
        result: dict[str, Any] | None,
        error: str | None,
        started_at: datetime,
        started: float,
        attempt: _Attempt,
    ) -> None:
        from hintgate.store import CallRecord

        store = self._gateway.store
        assert store is not None
        if error is None and result is not None and result.get("isError"):
            error = _error_text(result)
        info = getattr(self._gateway.sources[entry.server], "info", None)
        await store.record_call_durable(
            CallRecord(
                id=str(uuid.uuid4()),
                session_id=session.id if session else None,
                server_id=entry.server,
                server_name=getattr(info, "name", None),
                tool_name=entry.name,
                upstream_tool=entry.upstream_name,
                arguments=arguments,
                response=result,
                error=error,
                started_at=started_at,
                duration_ms=(time.perf_counter() - started) * 1000,
                request_id=str(ctx.request_id) if ctx is not None and ctx.request_id is not None else None,
                client_name=session.client_name if session else None,
                client_version=session.client_version if session else None,
                hints=entry.snapshot,
                tier=entry.tier.value,
                decision=attempt.to_json(),
                verdict=_final_verdict(attempt),
            )
        )


def _approval_name(answer: Answer) -> str:
    return {Answer.APPROVE_ONCE: "once", Answer.APPROVE_SESSION: "session", Answer.DENY: "denied"}[answer]


def _final_verdict(attempt: _Attempt) -> str:
    """allow, deny, or for asked calls approved / denied."""
    verdict = attempt.decision.verdict
    if verdict is not Verdict.ASK:
        return verdict.value
    return "approved" if attempt.approval in ("once", "session") else "denied"
