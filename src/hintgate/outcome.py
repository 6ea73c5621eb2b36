"""What one tools/call leaves behind, and who hears of it.

`hintgate.pipeline.ToolCalls` keeps a `CallAttempt` while a call runs, makes
one `CallOutcome` per answered call and hands it to every `CallObserver` (the
store's recorder, metrics, tracing); a `Tracer` times the phases of the call
while it runs.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from hintgate.policy.decide import CallFacts, Decision
from hintgate.policy.rules import Verdict
from hintgate.random_ids import random_id

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry

__all__ = [
    "CANCELLED",
    "NO_TRACER",
    "WITHDRAWN",
    "CallAttempt",
    "CallObserver",
    "CallOutcome",
    "Tracer",
    "call_snapshot",
]

CANCELLED = "cancelled before it finished (the client cancelled it, or the gateway stopped)"
"""The error on record of a call cancelled while it ran: it may have reached its server."""

WITHDRAWN = "withdrawn before a person answered (the client cancelled it or went away); it never ran"
"""The error on record of a call whose question the client withdrew."""


@dataclass(frozen=True, slots=True)
class CallOutcome:
    """What one tools/call went through and how it ended; what observers receive.

    Attributes:
        call_id: unique per call (a UUID string).
        entry: the catalog entry called (public name, server, upstream name, hints, tier).
        server_name: the name the server gave itself in `initialize`, if any.
        session_id: the client session's id (None for a call without one).
        client_name: the client's name, from its session.
        client_version: the client's version.
        user: who made the call (its session's person, `api-token`), None when the gateway knows no users.
        user_key: who that is (`hintgate.policy.principal.Principal.key`), for what is theirs; None likewise.
        request_id: the client's JSON-RPC request id, as a string.
        arguments: the call's arguments.
        result: the `CallToolResult` JSON sent back, None when the call raised.
        error: what went wrong: the exception's text, or the text of an `isError` result.
        started_at: when the call started (UTC).
        duration_ms: how long the whole call took, questions included.
        upstream_ms: how long the source took to answer (None when it was not called).
        decision: the policy's decision.
        verdict: allow, deny, or for asked calls approved / denied / expired (nobody answered in time) /
            withdrawn (the caller left first).
        approver: who answered a question (`client`, `api`, `timeout`...).
        approval: `once`, `session`, `denied`, `expired` or `withdrawn` for asked calls.
        asked_via: `elicitation`, `input-required` or `queue` for asked calls.
        waited_ms: how long the question waited for its answer.
        parent_call_id: the call this one repeats, for a retry.
        execution_type: `direct`; `retry` for the gateway's own second attempt after a transient
            failure (its parent is the failed attempt, recorded as a call of its own); `client_retry`
            for the client's identical call of an idempotent tool within `idempotentRetryWindow`
            seconds of the earlier one (its parent).
        hints: the call's own hints when its arguments were judged (`call_snapshot`: annotations,
            provenance, tier, what it does, and the tool's static hints beside them); None: the tool's.
        task: the call became a task its client holds a handle of: its record is written by the task book
            when the handle goes out and when the task ends (`hintgate.server.tasks`), not by the recorder.
        result_json: `result`'s JSON as the result scan wrote it (`GuardedResult.json`), for its record to reuse;
            None: not written.
    """

    call_id: str
    entry: CatalogEntry
    server_name: str | None
    session_id: str | None
    client_name: str | None
    client_version: str | None
    request_id: str | None
    arguments: Mapping[str, Any] | None
    result: Mapping[str, Any] | None
    error: str | None
    started_at: datetime
    duration_ms: float
    upstream_ms: float | None
    decision: Decision
    verdict: str
    approver: str | None = None
    approval: str | None = None
    asked_via: str | None = None
    waited_ms: float | None = None
    parent_call_id: str | None = None
    execution_type: str = "direct"
    user: str | None = None
    user_key: str | None = None
    result_findings: tuple[Mapping[str, Any], ...] = ()
    result_action: str | None = None
    hints: Mapping[str, Any] | None = None
    task: bool = False
    result_json: str | None = None

    @property
    def snapshot(self) -> Mapping[str, Any]:
        """The hints the call was decided with: its own when judged by its arguments, else its tool's."""
        return self.hints if self.hints is not None else self.entry.snapshot

    @property
    def tier(self) -> str:
        """The tier the call was decided with."""
        return str(self.snapshot.get("tier", self.entry.tier.value))

    @property
    def outcome(self) -> str:
        """`ok`, `tool_error` (an `isError` result, denials included) or `error` (the call raised)."""
        if self.result is None:
            return "error"
        return "tool_error" if self.result.get("isError") else "ok"

    def decision_json(self) -> dict[str, Any]:
        """`{"verdict", "reason", "source", "approver", "approval", "asked_via", "waited_ms"}`, as recorded."""
        return {
            **self.decision.to_json(),
            "approver": self.approver,
            "approval": self.approval,
            "asked_via": self.asked_via,
            "waited_ms": None if self.waited_ms is None else round(self.waited_ms, 3),
            **(
                {"result_findings": list(self.result_findings), "result_action": self.result_action}
                if self.result_findings
                else {}
            ),
        }


@dataclass(slots=True)
class CallAttempt:
    """What one call went through so far (mutable while it runs; frozen into a `CallOutcome`)."""

    decision: Decision
    started: float  # a perf_counter reading
    started_at: datetime
    call_id: str = field(default_factory=random_id)  # a random UUID's text, without the `UUID` object
    parent_call_id: str | None = None
    execution_type: str = "direct"
    actor: str | None = None
    approval: str | None = None
    asked_via: str | None = None
    waited_ms: float | None = None
    upstream_ms: float | None = None
    result_findings: tuple[Mapping[str, Any], ...] = ()
    result_action: str | None = None
    refusal: str | None = None
    hints: Mapping[str, Any] | None = None
    written: tuple[Mapping[str, Any], str] | None = None
    """The result the guard let out and its JSON as the scan wrote it (`GuardedResult.json`): the record reuses the
    JSON when that very result is the call's."""

    def add_upstream_time(self, began: float) -> None:
        """Count the time since `began` (a `perf_counter` reading) as the source's."""
        self.upstream_ms = (self.upstream_ms or 0.0) + (time.perf_counter() - began) * 1000

    def final_verdict(self) -> str:
        """allow, deny, or for asked calls approved / denied / expired (nobody answered in time) / withdrawn."""
        verdict = self.decision.verdict
        if verdict is not Verdict.ASK:
            return verdict.value
        if self.approval in ("withdrawn", "expired"):
            return self.approval
        return "approved" if self.approval in ("once", "session") else "denied"


def call_snapshot(facts: CallFacts, entry: CatalogEntry) -> Mapping[str, Any] | None:
    """The hints of a call judged by its arguments, as its record keeps them; None when they are its tool's.

    `{"annotations", "provenance", "tier"}` as a tool's snapshot has them (provenance `argument:<rule>`
    for what the arguments decided), with `does` (what the call does, in words) and `static` (the tool's
    own snapshot) beside them.
    """
    if facts.judgement is None:
        return None
    resolution = facts.resolution
    return {
        "annotations": resolution.to_mcp(),
        "provenance": resolution.provenance(),
        "tier": facts.tier.value,
        "does": facts.does,
        "static": entry.snapshot,
    }


class CallObserver(Protocol):
    """Receives every call's outcome (the recorder, metrics...).

    Called synchronously on the call path: it must be cheap (hand slow work to
    a queue) and should not raise; what it raises is logged and dropped. It
    returns None, or an awaitable that the call waits for before its answer
    goes back (durable recording: the answer leaves once its record is
    committed); what that raises is logged too.
    """

    def call_finished(self, outcome: CallOutcome) -> Awaitable[object] | None:
        """One call has its answer."""


class Tracer(Protocol):
    """Opens a span around a phase of a call (decide, ask, upstream call, record)."""

    def span(self, name: str, attributes: Mapping[str, str]) -> AbstractContextManager[object]:
        """A context manager timing one phase; current while it is open."""


class _NoTracer:
    """The tracer when tracing is off: every span is the same empty context manager."""

    _none: ClassVar[AbstractContextManager[object]] = contextlib.nullcontext()

    def span(self, name: str, attributes: Mapping[str, str]) -> AbstractContextManager[object]:
        return self._none


NO_TRACER: Tracer = _NoTracer()
"""The tracer in force when tracing is off."""
