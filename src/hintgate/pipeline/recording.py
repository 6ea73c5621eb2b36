"""The last stage of a call: its outcome, one immutable `CallOutcome`, told to the observers.

The store's recorder, metrics and tracing are observers (`outcome.CallObserver`), so the call path knows
none of them. An observer that returns an awaitable holds the answer until it is done: durable recording
sends the result once its record is committed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from hintgate.outcome import CallOutcome
from hintgate.results import error_text

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry
    from hintgate.outcome import CallAttempt, CallObserver, Tracer
    from hintgate.request_context import RequestContext
    from hintgate.session import ClientSession
    from hintgate.sources.base import Source

__all__ = ["RecordedCall", "Recording"]

logger = logging.getLogger(__name__)


class RecordedCall(Protocol):
    """The call an outcome is of (a `Decided` call is one)."""

    @property
    def ctx(self) -> RequestContext | None:
        """Its request (None for a call without one)."""

    @property
    def entry(self) -> CatalogEntry:
        """The catalog tool it called."""

    @property
    def arguments(self) -> Mapping[str, Any] | None:
        """Its arguments."""

    @property
    def session(self) -> ClientSession | None:
        """Its client session."""


@dataclass(frozen=True, slots=True, eq=False)
class Recording:
    """Makes each call's outcome and tells the observers, in order.

    Attributes:
        sources: the sources by name (an outcome names its server as the server introduced itself).
        observers: gives those told of every call's outcome, in order; read anew by every call.
        tracer: opens the span of the observers' work.
    """

    sources: Mapping[str, Source]
    observers: Callable[[], Sequence[CallObserver]]
    tracer: Tracer

    async def record(self, session: ClientSession | None, outcome: CallOutcome) -> CallOutcome:
        """Count the call on its session and tell the observers how it ended (`outcome`, as `outcome()` makes it);
        returns it."""
        if session is not None:
            session.calls += 1
        observers = self.observers()
        if not observers:
            return outcome
        with self.tracer.span("hintgate.record", {"tool": outcome.entry.name}):
            # An observer that returns an awaitable holds the answer until it is done:
            # durable recording sends the result once its record is committed.
            for waiting in self._tell(outcome, observers):
                try:
                    await waiting
                except Exception:
                    logger.exception("call observer failed while the call waited for it")
        return outcome

    def outcome(
        self,
        call: RecordedCall,
        result: dict[str, Any] | None,
        error: str | None,
        attempt: CallAttempt,
        *,
        task: bool = False,
    ) -> CallOutcome:
        """The call's outcome as it stands: what it went through (`attempt`), and how it ended (`result` or
        `error`; a tool error's text is its error); `task`: the call's record is its task's."""
        entry, session = call.entry, call.session
        if error is None and result is not None and result.get("isError"):
            error = error_text(result)
        source = self.sources.get(entry.server)
        info = getattr(source, "info", None)
        request_id = call.ctx.request_id if call.ctx is not None else None
        written = attempt.written
        return CallOutcome(
            call_id=attempt.call_id,
            entry=entry,
            server_name=getattr(info, "name", None),
            session_id=session.id if session else None,
            client_name=session.client_name if session else None,
            client_version=session.client_version if session else None,
            user=session.user if session else None,
            user_key=session.principal.key if session is not None and session.principal is not None else None,
            request_id=str(request_id) if request_id is not None else None,
            arguments=call.arguments,
            result=result,
            error=error,
            started_at=attempt.started_at,
            duration_ms=(time.perf_counter() - attempt.started) * 1000,
            upstream_ms=attempt.upstream_ms,
            decision=attempt.decision,
            verdict=attempt.final_verdict(),
            approver=attempt.actor,
            approval=attempt.approval,
            asked_via=attempt.asked_via,
            waited_ms=attempt.waited_ms,
            parent_call_id=attempt.parent_call_id,
            execution_type=attempt.execution_type,
            result_findings=attempt.result_findings,
            result_action=attempt.result_action,
            hints=attempt.hints,
            task=task,
            result_json=written[1] if written is not None and written[0] is result else None,
        )

    def _tell(self, outcome: CallOutcome, observers: Sequence[CallObserver]) -> list[Awaitable[object]]:
        """Tell every observer; returns what they asked the call to wait for."""
        waits: list[Awaitable[object]] = []
        for observer in observers:
            try:
                waiting = observer.call_finished(outcome)
            except Exception:
                # An observer's failure must not turn an answered call into a failed one.
                logger.exception("call observer %r failed", observer)
                continue
            if waiting is not None:
                waits.append(waiting)
        return waits
