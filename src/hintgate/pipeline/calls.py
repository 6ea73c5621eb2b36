"""`ToolCalls`: one tools/call through its stages, decide → ask → forward → guard the result → record.

Each stage is a class of its own, with typed inputs and outputs: `Deciding` makes the `Decided` call
(`pipeline.deciding`), `Asking` asks a person when the decision asks (`pipeline.asking`), `Forwarding`
runs it on its source and retries what may be retried (`pipeline.forwarding`), `ResultGuard` reads what
the source said before the client does (`pipeline.guarding`), and `Recording` tells the observers how
it ended (`pipeline.recording`). `ToolCalls` builds them from what it is given when built (what is known
only later comes through providers) and runs a call through them; a call an upstream answers with a task
handle goes on to the task routes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from hintgate.errors import InputRequired, UpstreamRequestError
from hintgate.outcome import CANCELLED, NO_TRACER, WITHDRAWN, CallAttempt, CallObserver, CallOutcome, call_snapshot
from hintgate.pipeline.asking import Asking
from hintgate.pipeline.call_policy import CallPolicy
from hintgate.pipeline.deciding import Deciding
from hintgate.pipeline.forwarding import Forwarding
from hintgate.pipeline.guarding import ResultGuard, TaskCall, withheld_unread
from hintgate.pipeline.recording import Recording
from hintgate.policy.approvals import ApprovalQueue
from hintgate.policy.decide import CallFacts, Decision, DecisionSource, SessionState
from hintgate.policy.own_places import OwnPlaces
from hintgate.policy.rules import Verdict
from hintgate.policy.seals import ApprovalSeals
from hintgate.results import tool_error
from hintgate.scan.workers import Scanner
from hintgate.sources.tasks import is_task

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry
    from hintgate.outcome import Tracer
    from hintgate.pipeline.deciding import Decided, SessionLookup
    from hintgate.policy.in_force import PolicyInForce
    from hintgate.policy.principal import Principal
    from hintgate.policy.rules import PolicySettings, Rule
    from hintgate.request_context import RequestContext
    from hintgate.sources.base import CallContext, Source

__all__ = ["CallsRunning", "HandedOff", "TaskFinish", "TaskHandoff", "ToolCalls"]

_T = TypeVar("_T")


class _NoClient:
    """The client side of a call made without a client to reach (no `client_for` given)."""

    @property
    def session_key(self) -> object:
        return self

    @property
    def principal(self) -> Principal | None:
        return None

    @property
    def elicits_url(self) -> bool:
        return False

    @property
    def asks_in_result(self) -> bool:
        return False

    def declares(self, extension: str) -> bool:
        return False

    def input_response(self, key: str) -> Mapping[str, Any] | None:
        return None

    async def progress(self, progress: float, total: float | None, message: str | None) -> None:
        return

    async def client_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        raise UpstreamRequestError(f"{method}: no client to ask", code=-32601)

    async def client_notify(self, method: str, params: dict[str, Any] | None) -> None:
        return


def _fixed(value: _T) -> Callable[[], _T]:
    """A provider of a value that does not change."""
    return lambda: value


def _no_client(_ctx: RequestContext | None) -> CallContext:
    return _NoClient()


TaskFinish = Callable[[Mapping[str, Any] | None, str | None], Awaitable[CallOutcome]]
"""Ends a call that became a task: (the tool's result, or why it has none) → the call's outcome, whose
`result` is the tool's result as the client gets it (scanned).

Called at most once, when the task is seen to end on the replica that started it; tells the call's observers
then (the call's record is the task book's: `CallOutcome.task`)."""


@dataclass(frozen=True, slots=True)
class HandedOff:
    """A call its upstream answered with a task handle, as `ToolCalls` hands it to its `TaskHandoff`.

    Attributes:
        call: the call, decided: its request, its client session and the catalog tool it called.
        handle: the upstream's task handle.
        finish: ends the call when the task is seen to end.
        started: the call as it stands when its handle goes out (no result yet), for its record.
    """

    call: Decided
    handle: Mapping[str, Any]
    finish: TaskFinish
    started: CallOutcome


class TaskHandoff(Protocol):
    """Takes the calls an upstream answered with a task handle (`hintgate.server.tasks.TaskRoutes`)."""

    async def started(self, handed: HandedOff) -> tuple[dict[str, Any], bool]:
        """The answer for the client, and whether the call is recorded when the task ends.

        When the call is not recorded later, the answer is the tool's result (or a tool error): the call
        ends now.
        """


class CallsRunning(Protocol):
    """Counts the calls past their ask stage until their answer leaves (the store's `RunningCalls`: a durable
    record waits a little for the records of the others, to share their commit)."""

    def enter(self) -> None:
        """A call is forwarded."""

    def leave(self) -> None:
        """A call entered has answered, its record waited for."""


class ToolCalls:
    """Runs tools/call under a policy, over its sources, telling its observers how each call ended.

    Args:
        sources: the sources by name (the gateway's own mapping: it may change as sources come and go).
        sessions: finds the client session of a request.
        policy: gives the policy in force (settings, rules, people's preferences, the result action), a value
            its keeper replaces whole when it changes; read anew by every call.
        approvals: gives the queue that calls needing a person wait in, read anew by every call (the gateway's
            is kept in its store once the store opens); a queue of its own when not given.
        seals: gives what seals and redeems the approvals that travel in a 2026-07-28 request's state, read anew
            by every call (the gateway's are kept in its store once the store opens); its own when not given.
        observers: gives those told of every call's outcome, in order, read anew by every call (the gateway
            adds its store's recording once the store opens); none when not given.
        tasks: where a call an upstream answered with a task handle goes on (None: such a call is a tool error).
        own_places: gives the gateway's listening addresses and data directory, read anew by every call (its
            listeners are known once they bind): a call naming them asks. None known when not given.
        approvals_url: gives where a person answers calls that ask (the dashboard's approvals page), None while
            none is served; read anew by every call (the page is known once its listener binds).
        approvals_command: the command that answers calls that ask from a terminal, when they are in a store.
        tracer: opens the spans of a call's phases (none when not given).
        modern_versions: protocol versions whose questions go out as `InputRequiredResult`.
        caller_probe: gives, for a request, a check that its result can still reach the caller
            (None when it cannot tell); a queued call whose caller is gone is withdrawn.
        client_for: gives, for a request (None: a call without one), the client side of its call:
            what sources report progress and relay requests through, and where the pipeline's own
            questions go (elicitation). Without it, calls have no client to reach.
        scanner: runs the poisoning scan of results, errors and task texts (off the event loop for long
            ones, within its deadline); one with the defaults when not given.
        running: gives what counts the calls past their ask stage (forwarded, their result guarded, their
            record waited for) until their answer leaves, None while nothing counts them; read anew by every
            call. A call waiting for a person's answer is not counted: it may wait minutes.

    Nothing is assigned into it or its stages once built: what the gateway learns later (its store, its
    listeners) comes through the providers it was given.
    """

    def __init__(
        self,
        sources: Mapping[str, Source],
        sessions: SessionLookup,
        *,
        policy: Callable[[], PolicyInForce],
        approvals: Callable[[], ApprovalQueue] | None = None,
        seals: Callable[[], ApprovalSeals] | None = None,
        observers: Callable[[], Sequence[CallObserver]] | None = None,
        tasks: TaskHandoff | None = None,
        own_places: Callable[[], OwnPlaces] | None = None,
        approvals_url: Callable[[], str | None] | None = None,
        approvals_command: str | None = None,
        tracer: Tracer | None = None,
        modern_versions: frozenset[str] = frozenset(),
        caller_probe: Callable[[RequestContext], Callable[[], bool] | None] | None = None,
        client_for: Callable[[RequestContext | None], CallContext] | None = None,
        scanner: Scanner | None = None,
        running: Callable[[], CallsRunning | None] | None = None,
    ) -> None:
        self._sessions = sessions
        self._running = running if running is not None else _fixed(None)
        self._tracer: Tracer = tracer if tracer is not None else NO_TRACER
        self._modern = modern_versions
        self._client_for: Callable[[RequestContext | None], CallContext] = client_for or _no_client
        self._policy = CallPolicy(policy)
        self._approvals = approvals if approvals is not None else _fixed(ApprovalQueue())
        self._seals = seals if seals is not None else _fixed(ApprovalSeals())
        self._approvals_url = approvals_url if approvals_url is not None else _fixed(None)
        self.approvals_command = approvals_command
        own = own_places if own_places is not None else _fixed(OwnPlaces())
        self._observers = observers if observers is not None else _fixed(())
        self.scanner = scanner if scanner is not None else Scanner()
        self._tasks = tasks
        self._deciding = Deciding(sources, sessions, self._policy, own, modern_versions, self._client_for, self._tracer)
        self.decided_now = self._deciding.decided_now
        """The call decided now, without waiting; None when deciding it must wait (`Deciding.decided_now`)."""
        self.facts = self._deciding.facts
        """What the policy knows about one call of an entry with its arguments by a person (`Deciding.facts`):
        every path that decides a call takes its facts here."""
        self._asking = Asking(self, self._policy, modern_versions, self._client_for, caller_probe)
        self._recording = Recording(sources, self._observers, self._tracer)
        self._forwarding = Forwarding(sources, modern_versions, self._client_for, self._recording)
        self._guard = ResultGuard(self._policy, self.scanner)

    @property
    def approvals(self) -> ApprovalQueue:
        """Calls waiting for a person."""
        return self._approvals()

    @property
    def seals(self) -> ApprovalSeals:
        """Seals and redeems the approvals that travel in a 2026-07-28 request's state."""
        return self._seals()

    @property
    def approvals_url(self) -> str | None:
        """Where a person answers calls that ask (the dashboard's approvals page), when one is served."""
        return self._approvals_url()

    @property
    def observers(self) -> Sequence[CallObserver]:
        """Those told of every call's outcome, in order."""
        return self._observers()

    @property
    def settings(self) -> PolicySettings:
        """The policy settings in force."""
        return self._policy.settings

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The policy rules in force."""
        return self._policy.rules

    async def __call__(
        self,
        ctx: RequestContext | None,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None,
        params: Mapping[str, Any],
        decided: Decided | None = None,
    ) -> dict[str, Any]:
        """Decide, ask, forward and report one call; returns the result JSON for the client.

        `decided`: the call decided ahead (`decided_now`), used when it still stands for this call
        (`Decided.stands_for`); otherwise the call is decided here.
        """
        with self._tracer.span("hintgate.call", {"tool": entry.name, "server": entry.server}):
            started, started_at = time.perf_counter(), datetime.now(UTC)
            stands = decided is not None and decided.stands_for(
                ctx, entry, arguments, self._policy.settings_for(decided.facts.who), self._policy.rules
            )
            if decided is None or not stands:
                decided = await self._deciding.decide(ctx, entry, arguments)
            return await self._run(decided, params, started, started_at)

    async def _run(
        self, decided: Decided, params: Mapping[str, Any], started: float, started_at: datetime
    ) -> dict[str, Any]:
        """The stages after the decision: ask (when it asks), forward, guard the result; the call recorded."""
        entry, arguments, facts, state = decided.entry, decided.arguments, decided.facts, decided.state
        attempt = CallAttempt(decided.decision, started, started_at, hints=call_snapshot(facts, entry))
        if facts.idempotent and not facts.read_only:
            window = self._policy.settings.idempotent_retry_window
            earlier = state.earlier_call(entry.name, arguments or {}, now=decided.now, window=window)
            if earlier is not None:  # the client repeats a call it may not have had the answer of
                attempt.parent_call_id, attempt.execution_type = earlier, "client_retry"
        verdict = attempt.decision.verdict
        result: dict[str, Any] | None = None
        error: str | None = None
        deferred = False  # a task's call is recorded when the task ends
        approved_now = False  # approved in this request: a question that follows carries the approval
        running: CallsRunning | None = None  # past the ask stage: counted until its answer leaves
        try:
            if verdict is Verdict.ASK:
                with self._tracer.span("hintgate.ask", {"tool": entry.name}):
                    answered = await self._asking.ask(decided, attempt, params)
                if isinstance(answered, dict):  # a 2026-07-28 InputRequiredResult: the question goes out
                    return answered
                if not answered.approved:
                    result = tool_error(self._asking.denial(entry, attempt, answered))
                    return result
                approved_now = True
            elif verdict is Verdict.DENY:
                result = tool_error(f"hintgate denied this call of {entry.name!r}: {attempt.decision.reason}")
                return result
            elif facts.idempotent and not facts.read_only:
                state.record_approval(entry.name, arguments or {}, decided.now, call_id=attempt.call_id)
            running = self._running()
            if running is not None:
                running.enter()
            with self._tracer.span("hintgate.upstream_call", {"tool": entry.upstream_name, "server": entry.server}):
                result = await self._forwarding.forward(decided, params, attempt)
            if is_task(result):
                result, deferred = await self._hand_off(decided, result, attempt)
                if deferred:
                    return result
            result = await self._guard.result(result, decided, attempt, self._client_for(decided.ctx))
            return result
        except UpstreamRequestError as exc:
            # The server's own JSON-RPC error reaches the client as it was sent: its words are read like a result's.
            guarded = await self._guard.error(exc, decided, attempt)
            error = str(guarded)
            if guarded is exc:
                raise
            raise guarded from None
        except InputRequired as asked:
            # The source's question goes out; the client's next call, with the answer, is the one on record.
            required: dict[str, Any] = {"resultType": "input_required", "inputRequests": asked.requests}
            if approved_now:
                required["requestState"] = self._asking.carry(decided, attempt, asked)
            return required
        except Exception as exc:
            error = str(exc)
            raise
        except asyncio.CancelledError:
            # It may have reached its server (not when withdrawn while asking): the record says so.
            error = WITHDRAWN if attempt.approval == "withdrawn" else CANCELLED
            raise
        finally:
            try:
                if not deferred and (result is not None or error is not None):
                    outcome = self._recording.outcome(decided, result, error, attempt)
                    await self._recording.record(decided.session, outcome)
            finally:
                if running is not None:
                    running.leave()

    async def _hand_off(
        self, decided: Decided, handle: dict[str, Any], attempt: CallAttempt
    ) -> tuple[dict[str, Any], bool]:
        """An upstream answered with a task handle: the client holds it, or the gateway waits for the task's end.

        Returns what the client gets (its own handle; or, for a client that
        does not take handles, the tool's result once the task ended) and
        whether the record waits for the task's end.
        """
        ctx = decided.ctx

        async def finish(result: Mapping[str, Any] | None, error: str | None) -> CallOutcome:
            client = self._client_for(ctx)
            taken = await self._guard.result(dict(result), decided, attempt, client) if result is not None else None
            ended = self._recording.outcome(decided, taken, error, attempt, task=True)
            return await self._recording.record(decided.session, ended)

        if self._tasks is None:
            return tool_error(
                f"The tool {decided.entry.name!r} answered with a task, which this gateway does not route."
            ), False
        started = self._recording.outcome(decided, None, None, attempt, task=True)
        return await self._tasks.started(HandedOff(decided, handle, finish, started))

    async def scan_task_result(
        self, ctx: RequestContext | None, entry: CatalogEntry, result: Mapping[str, Any]
    ) -> tuple[dict[str, Any], tuple[Mapping[str, Any], ...], str | None]:
        """A task's result seen to end away from the call that started it (another replica, or after it).

        Scanned as any result (`ResultGuard.result`), tainting the asking request's session; returns the
        result as the client gets it, the scan's findings and what was done about them.
        """
        # The call was decided when it started; this attempt only carries what the scan finds.
        decided = Decision(Verdict.ALLOW, "decided when its task started", DecisionSource.RULE)
        attempt = CallAttempt(decided, time.perf_counter(), datetime.now(UTC))
        taken = await self._guard.result(dict(result), self._task_call(ctx, entry), attempt, self._client_for(ctx))
        return taken, attempt.result_findings, attempt.result_action

    async def scan_task_words(
        self, ctx: RequestContext | None, entry: CatalogEntry | None, value: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What a task's server says besides its result (its status message, its error, its input requests), as
        the client gets it: read like a result (`ResultGuard.words`), tainting the asking request's session.
        Without the tool's entry (no longer listed) every string is withheld: nothing is passed on unread."""
        if entry is None:
            return withheld_unread(value)
        return await self._guard.words(value, self._task_call(ctx, entry), "the task's words")

    def _task_call(self, ctx: RequestContext | None, entry: CatalogEntry) -> TaskCall:
        """A task's call as the asking request sees it: its session (and state), and its tool's facts."""
        session = self._sessions.for_request(ctx) if ctx is not None else None
        modern = ctx is not None and ctx.protocol_version in self._modern
        state = session.policy_state(connectionless=modern) if session is not None else SessionState()
        facts = CallFacts.from_entry(entry, None, session.principal if session is not None else None)
        return TaskCall(entry, facts, state, session)
