"""The life of one tools/call: decide, ask if need be, forward, retry what may be retried, record.

allow: forwarded. deny: a tool error whose text gives the reason; the source
is never called. ask: the client is asked through MCP elicitation when it
declared support (`elicitation/create` on 2025-11-25 connections, an
`InputRequiredResult` whose sealed `requestState` it cannot forge on
2026-07-28 ones, answered once, by the session asked, before `approvalTimeout`:
see `hintgate.policy.seals`); otherwise, or when the policy says so, the call waits in the
approval queue that the REST API and the dashboard answer. No answer in time
means deny. Every decision, with who answered, how and how long it took, goes
on the call's outcome. A source's own question for a 2026-07-28 client (a
person's login page) goes out the same way (`InputRequired`); the call that
carries the answer is decided afresh, and only it is recorded. When the policy
asked about that call and it was approved in the same request, the question's
sealed state carries the approval (`ApprovalSeals.carry`): the answering
request of the same call, session and person runs without being asked again.

One immutable `CallOutcome` leaves every call that got an answer, and the
observers given to `ToolCalls` receive it: the store's recorder, metrics and
tracing are observers, so the call path knows none of them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from hintgate.arguments import argument_problem
from hintgate.errors import (
    InputRequired,
    UpstreamClosed,
    UpstreamDown,
    UpstreamError,
    UpstreamRequestError,
    UpstreamTimeout,
)
from hintgate.hints.annotations import Hint
from hintgate.hints.calls.bound import judgement_of, weigh_upstream
from hintgate.hints.catalog import CatalogEntry
from hintgate.outcome import (
    CANCELLED,
    NO_TRACER,
    WITHDRAWN,
    CallAttempt,
    CallObserver,
    CallOutcome,
    Tracer,
    call_snapshot,
)
from hintgate.policy.approvals import Answer, ApprovalQueue, Outcome
from hintgate.policy.asking import (
    APPROVAL_KEY,
    APPROVAL_LOG,
    ARGUMENTS_SHOWN,
    answer_from_elicitation,
    approval_form,
    arguments_text,
    denial,
    question,
    where_to_answer,
)
from hintgate.policy.decide import (
    UNSET,
    CallFacts,
    Decision,
    DecisionSource,
    SessionState,
    decide,
    failure_kind,
    should_retry,
    who_answers,
)
from hintgate.policy.explain import warnings
from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.own_places import OwnPlaces
from hintgate.policy.preferences import owner_key, stricter
from hintgate.policy.principal import Approvers, Principal, PrincipalKind
from hintgate.policy.rules import PolicySettings, Rule, Verdict
from hintgate.policy.seals import ApprovalSeals, call_digest
from hintgate.results import error_text, server_down_error, tool_error
from hintgate.scan.guard import OnResultFinding, redacted
from hintgate.scan.poisoning import UNSCANNED, Key, Level, Location, ScanFinding, high_findings
from hintgate.scan.workers import Scanner
from hintgate.sources.base import CallContext, Source, SourceState, SourceStatus
from hintgate.sources.capabilities import Resolves
from hintgate.sources.resolution import answer_hints, marked
from hintgate.sources.tasks import is_task
from hintgate.sources.trust_annotations import TRUST, annotated
from hintgate.sources.trust_annotations import claims as trust_claims

if TYPE_CHECKING:
    from hintgate.request_context import RequestContext
    from hintgate.session import ClientSession

__all__ = ["Decided", "SessionLookup", "TaskFinish", "TaskHandoff", "ToolCalls"]

logger = logging.getLogger(__name__)
approval_log = logging.getLogger(APPROVAL_LOG)  # a call waiting for a person, and how its wait ended

_RETRY_WAIT = 10.0  # seconds a retry waits for a restarted source to come back up
_RESOLVE_WAIT = 5.0  # seconds an upstream's tools/resolve may take; resolving is meant to be cheaper than the call


def _act_phrase(hints: Mapping[Hint, bool]) -> str:
    if hints[Hint.READ_ONLY]:
        return "read-only"
    return "destructive" if hints[Hint.DESTRUCTIVE] else "additive"


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


def _no_client(_ctx: RequestContext | None) -> CallContext:
    return _NoClient()


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


class SessionLookup(Protocol):
    """Finds the client session of a request (`hintgate.server.sessions.SessionTracker`)."""

    def for_request(self, ctx: Any) -> ClientSession:
        """The session the request belongs to, opened on first sight."""


TaskFinish = Callable[[Mapping[str, Any] | None, str | None], Awaitable[CallOutcome]]
"""Ends a call that became a task: (the tool's result, or why it has none) → the call's outcome, whose
`result` is the tool's result as the client gets it (scanned).

Called at most once, when the task is seen to end on the replica that started it; tells the call's observers
then (the call's record is the task book's: `CallOutcome.task`)."""


class TaskHandoff(Protocol):
    """Takes the calls an upstream answered with a task handle (`hintgate.server.tasks.TaskRoutes`)."""

    async def started(
        self,
        ctx: RequestContext | None,
        session: ClientSession | None,
        entry: CatalogEntry,
        handle: Mapping[str, Any],
        finish: TaskFinish,
        started: CallOutcome,
    ) -> tuple[dict[str, Any], bool]:
        """The answer for the client, and whether the call is recorded when the task ends.

        `started` is the call as it stands when its handle goes out (no result yet), for its record. When
        the call is not recorded later, the answer is the tool's result (or a tool error): the call ends now.
        """


class _Step:
    """One step of the event loop: over once the loop has run what was scheduled before its end."""

    __slots__ = ("over",)

    def __init__(self) -> None:
        self.over = False
        asyncio.get_running_loop().call_soon(self._end)

    def _end(self) -> None:
        self.over = True


@dataclass(frozen=True, slots=True)
class Decided:
    """One tools/call, decided: the call, what the policy knew of it, the policy it was decided under, the decision.

    `ToolCalls.decide` takes one for every call; the HTTP fast path takes one ahead
    (`ToolCalls.decided_now`), sends a call that asks the way that can wait, and hands the
    others to the pipeline, which runs, records and answers them without deciding again
    (`ToolCalls.__call__`), while the decision still stands (`stands_for`).

    Attributes:
        ctx: the request of the call (None for a call without one).
        entry: the catalog tool it calls.
        arguments: its arguments.
        session: its client session (None without a request).
        state: what the policy remembered of the session when it decided (the session's own; a copy for a
            connectionless 2026-07-28 request).
        facts: what the policy knew of the call: its hints in force, judged from its arguments.
        settings: the policy settings it was decided under (the caller's own preferences laid over).
        rules: the policy rules it was decided under.
        decision: the decision; a call whose arguments fail its tool's input schema is denied.
        now: when it was decided (`time.time()`, the clock of the session's approval windows).
        step: the step of the event loop it was taken in ahead of its call, when it may be handed on
            (None: it stands only for the call that took it).
    """

    ctx: RequestContext | None
    entry: CatalogEntry
    arguments: Mapping[str, Any] | None
    session: ClientSession | None
    state: SessionState
    facts: CallFacts
    settings: PolicySettings
    rules: tuple[Rule, ...]
    decision: Decision
    now: float
    step: _Step | None = None

    @property
    def asks(self) -> bool:
        """Whether the call waits for a person's answer before it runs."""
        return self.decision.verdict is Verdict.ASK

    def stands_for(
        self,
        ctx: RequestContext | None,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None,
        settings: PolicySettings,
        rules: tuple[Rule, ...],
    ) -> bool:
        """Whether this decision is still the one the call would get: taken ahead for this very call (the same
        objects), under the policy in force, in the step of the event loop that runs it (whatever runs after
        that step may change the session's state: a taint, an approval, the time)."""
        return (
            self.step is not None
            and not self.step.over
            and self.ctx is ctx
            and self.entry is entry
            and self.arguments is arguments
            and self.settings is settings
            and self.rules is rules
            and (self.session is None or self.state is self.session.policy)
        )


class ToolCalls:
    """Runs tools/call under a policy, over its sources, telling its observers how each call ended.

    Args:
        sources: the sources by name (the gateway's own mapping: it may change as sources come and go).
        sessions: finds the client session of a request.
        policy: gives the policy in force (settings, rules, people's preferences, the result action), a value
            its keeper replaces whole when it changes; read anew by every call.
        approvals: the queue that calls needing a person wait in (a new one when not given).
        observers: told of every call's outcome, in order.
        tracer: opens the spans of a call's phases (none when not given).
        modern_versions: protocol versions whose questions go out as `InputRequiredResult`.
        caller_probe: gives, for a request, a check that its result can still reach the caller
            (None when it cannot tell); a queued call whose caller is gone is withdrawn.
        client_for: gives, for a request (None: a call without one), the client side of its call:
            what sources report progress and relay requests through, and where the pipeline's own
            questions go (elicitation). Without it, calls have no client to reach.
        scanner: runs the poisoning scan of results, errors and task texts (off the event loop for long
            ones, within its deadline); one with the defaults when not given.

    Attributes:
        approvals: calls waiting for a person.
        approvals_url: where a person answers them (the dashboard's approvals page), when one is served.
        approvals_command: the command that answers them from a terminal, when they are in a store.
        own_places: the gateway's listening addresses and data directory: a call naming them asks.
        observers: told of every call's outcome.
        scanner: runs the poisoning scan of what upstreams answer.
    """

    def __init__(
        self,
        sources: Mapping[str, Source],
        sessions: SessionLookup,
        *,
        policy: Callable[[], PolicyInForce],
        approvals: ApprovalQueue | None = None,
        observers: Iterable[CallObserver] = (),
        tracer: Tracer | None = None,
        modern_versions: frozenset[str] = frozenset(),
        caller_probe: Callable[[RequestContext], Callable[[], bool] | None] | None = None,
        client_for: Callable[[RequestContext | None], CallContext] | None = None,
        scanner: Scanner | None = None,
    ) -> None:
        self._sources = sources
        self._sessions = sessions
        self._policy = policy
        self._personal: dict[str, tuple[PolicySettings, Mapping[str, Any], PolicySettings]] = {}
        self.approvals = approvals if approvals is not None else ApprovalQueue()
        self.observers: list[CallObserver] = list(observers)
        self._tracer: Tracer = tracer if tracer is not None else NO_TRACER
        self._modern = modern_versions
        self.seals = ApprovalSeals()
        self._caller_probe = caller_probe
        self._client_for: Callable[[RequestContext | None], CallContext] = client_for or _no_client
        self.approvals_url: str | None = None
        self.approvals_command: str | None = None
        self.own_places = OwnPlaces()
        self.scanner = scanner if scanner is not None else Scanner()
        self.tasks: TaskHandoff | None = None
        """Where a call an upstream answered with a task handle goes on (None: such a call is a tool error)."""

    @property
    def settings(self) -> PolicySettings:
        """The policy settings in force."""
        return self._policy().settings

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The policy rules in force."""
        return self._policy().rules

    @property
    def preferences(self) -> Mapping[str, Mapping[str, Any]]:
        """Each person's own preferences (person key → key path → value), laid over `settings` for their calls
        where they ask more (`settings_for`)."""
        return self._policy().preferences

    @property
    def on_result_finding(self) -> OnResultFinding:
        """What reaches the client when a result speaks to the model (`integrity.onResultFinding`)."""
        return self._policy().on_result_finding

    def settings_for(self, principal: Principal | None) -> PolicySettings:
        """The settings a principal's call is decided under: `settings`, with their own preferences laid over
        where they ask more (the same object while neither changes, so a decision taken ahead still holds)."""
        mine = self.preferences.get(owner_key(principal)) if principal is not None else None
        if not mine:
            return self.settings
        key = owner_key(principal) if principal is not None else ""
        cached = self._personal.get(key)
        if cached is not None and cached[0] is self.settings and cached[1] is mine:
            return cached[2]
        if len(self._personal) >= 4096:
            self._personal.clear()
        laid = stricter(self.settings, mine)
        self._personal[key] = (self.settings, mine, laid)
        return laid

    def decided_now(
        self, ctx: RequestContext, entry: CatalogEntry, arguments: Mapping[str, Any] | None
    ) -> Decided | None:
        """The call decided now, without waiting; None when deciding it must wait (the path that can wait takes it).

        Its server resolves the call first (`tools/resolve`), or its arguments are judged on a worker thread:
        both are awaited. Nothing changes but the request's session being opened, as the call would open it.
        Handed to the call in the same step of the event loop (`ToolCalls.__call__`), the decision is the call's.
        """
        session = self._sessions.for_request(ctx)
        if self._asks_upstream(entry, arguments) or (
            self.settings.judge_arguments and entry.tool.judge is not None and entry.tool.judge.heavy(arguments)
        ):
            return None
        connectionless = ctx.protocol_version in self._modern
        state = session.policy_state(connectionless=connectionless)
        named = self.own_places.named_in(arguments)
        judged = UNSET if self.settings.judge_arguments else None
        facts = CallFacts.from_entry(entry, arguments, session.principal, names_gateway=named, judgement=judged)
        # A connectionless state is the call's own copy: the call takes another, and decides on it.
        step = None if connectionless else _Step()
        return self._decided(ctx, entry, arguments, session, state, facts, step)

    async def decide(
        self, ctx: RequestContext | None, entry: CatalogEntry, arguments: Mapping[str, Any] | None
    ) -> Decided:
        """Decide one call of `entry` with `arguments`: the first stage of every call (`__call__`).

        The request's session is opened; the facts are taken (`facts`: judged from the arguments, and by
        the call's server when it resolves calls); the policy decides under the settings in force for the caller.
        """
        session = self._sessions.for_request(ctx) if ctx is not None else None
        modern = ctx is not None and ctx.protocol_version in self._modern
        state = session.policy_state(connectionless=modern) if session is not None else SessionState()
        facts = await self.facts(ctx, entry, arguments, session.principal if session is not None else None)
        return self._decided(ctx, entry, arguments, session, state, facts, None)

    def _decided(
        self,
        ctx: RequestContext | None,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None,
        session: ClientSession | None,
        state: SessionState,
        facts: CallFacts,
        step: _Step | None,
    ) -> Decided:
        now = time.time()
        settings = self.settings_for(session.principal if session is not None else None)
        with self._tracer.span("hintgate.decide", {"tool": entry.name}):
            # A call its server would reject is refused before anyone is asked to approve it.
            problem = argument_problem(entry.tool.raw.get("inputSchema"), arguments)
            if problem is not None:
                reason = f"The arguments do not match the tool's input schema: {problem}"
                decision = Decision(Verdict.DENY, reason, DecisionSource.INPUT_SCHEMA)
            else:
                decision = decide(facts, state, settings, self.rules, now=now)
        return Decided(ctx, entry, arguments, session, state, facts, settings, self.rules, decision, now, step)

    async def facts(
        self,
        ctx: RequestContext | None,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None,
        who: Principal | None,
    ) -> CallFacts:
        """What the policy knows about one call of `entry` with `arguments` by `who`: the decision's entry point.

        The call's hints are judged from its arguments (`CallFacts.from_entry`) and, when its server
        resolves calls itself (`tools/resolve`), its answer is weighed in as far as its trust allows. Every
        path that decides a call takes its facts here: a `tools/call`, a `tools/resolve` the gateway answers,
        a gateway-served tool that calls another tool (decide with the facts of the tool it calls).
        """
        named = self.own_places.named_in(arguments)
        if not self.settings.judge_arguments:
            return CallFacts.from_entry(entry, arguments, who, names_gateway=named, judgement=None)
        judge = entry.tool.judge
        if judge is not None and judge.heavy(arguments):
            # A long statement or command line takes milliseconds to parse: not on the event loop.
            judged = await asyncio.to_thread(judge.judge, arguments)
            facts = CallFacts.from_entry(entry, arguments, who, names_gateway=named, judgement=judged)
        else:
            facts = CallFacts.from_entry(entry, arguments, who, names_gateway=named)
        if self._asks_upstream(entry, arguments):
            facts = await self._resolved_upstream(ctx, entry, facts, arguments)
        return facts

    def _asks_upstream(self, entry: CatalogEntry, arguments: Mapping[str, Any] | None) -> bool:
        """Whether the call's server resolves it itself (it offered the extension and marked the tool)."""
        source = self._sources.get(entry.server)
        return (
            self.settings.judge_arguments
            and arguments is not None
            and marked(entry.tool.raw)  # first: marked tools are rare, and the capability check reads members
            and isinstance(source, Resolves)
            and source.offers_resolution
        )

    async def _resolved_upstream(
        self, ctx: RequestContext | None, entry: CatalogEntry, facts: CallFacts, arguments: Mapping[str, Any] | None
    ) -> CallFacts:
        """The facts with the call's server's own `tools/resolve` answer weighed in, as far as its trust allows.

        An answer that fails the draft's checks (another name, a hint that is not a boolean, riskier-than-listed
        bounds broken), an error or no answer in time is a resolution failure: hintgate's own judgement (or the
        tool's static hints) stands. `hints.calls.bound.weigh_upstream` says how far an answer counts.
        """
        source = self._sources.get(entry.server)
        if not isinstance(source, Resolves):  # reloaded into a source that does not resolve
            return facts
        params = {"name": entry.upstream_name, "arguments": dict(arguments or {})}
        wait = min(_RESOLVE_WAIT, source.call_timeout)
        try:
            answer = await asyncio.wait_for(
                source.request("tools/resolve", params, context=self._client_for(ctx)), wait
            )
        except (UpstreamError, TimeoutError) as exc:
            logger.info("hintgate: %s: its server's tools/resolve failed (%s); its own hints stand", entry.name, exc)
            return facts
        hints = answer_hints(answer, name=entry.upstream_name, static=entry.tool.raw.get("annotations"))
        if isinstance(hints, str):
            logger.warning("hintgate: %s: its server's tools/resolve answer is not used: %s", entry.name, hints)
            return facts
        said = judgement_of(hints, f"its server resolved this call as {_act_phrase(hints)}", "upstream")
        weighed = weigh_upstream(facts.static or facts.resolution, facts.judgement, said)
        return dataclasses.replace(facts, judgement=weighed)

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
                ctx, entry, arguments, self.settings_for(decided.facts.who), self.rules
            )
            if decided is None or not stands:
                decided = await self.decide(ctx, entry, arguments)
            return await self._run(decided, params, started, started_at)

    async def _run(
        self, decided: Decided, params: Mapping[str, Any], started: float, started_at: datetime
    ) -> dict[str, Any]:
        ctx, entry, arguments, session = decided.ctx, decided.entry, decided.arguments, decided.session
        state, facts, now = decided.state, decided.facts, decided.now
        attempt = CallAttempt(decided.decision, started, started_at, hints=call_snapshot(facts, entry))
        if facts.idempotent and not facts.read_only:
            window = self.settings.idempotent_retry_window
            earlier = state.earlier_call(entry.name, arguments or {}, now=now, window=window)
            if earlier is not None:  # the client repeats a call it may not have had the answer of
                attempt.parent_call_id, attempt.execution_type = earlier, "client_retry"
        verdict = attempt.decision.verdict
        result: dict[str, Any] | None = None
        error: str | None = None
        deferred = False  # a task's call is recorded when the task ends
        approved_now = False  # approved in this request: a question that follows carries the approval
        try:
            if verdict is Verdict.ASK:
                with self._tracer.span("hintgate.ask", {"tool": entry.name}):
                    answered = await self._ask(ctx, entry, facts, attempt, session, params)
                if isinstance(answered, dict):  # a 2026-07-28 InputRequiredResult: the question goes out
                    return answered
                _log_answer(entry, attempt, answered, self.settings.approval_timeout)
                if not answered.approved:
                    result = tool_error(self._denial(entry, attempt, answered))
                    return result
                approved_now = True
                state.approve_once(entry.name)
                if answered.answer is Answer.APPROVE_SESSION:
                    state.approve_for_session(entry.name)
                state.record_approval(entry.name, arguments or {}, now, call_id=attempt.call_id)
            elif verdict is Verdict.DENY:
                result = tool_error(f"hintgate denied this call of {entry.name!r}: {attempt.decision.reason}")
                return result
            elif facts.idempotent and not facts.read_only:
                state.record_approval(entry.name, arguments or {}, now, call_id=attempt.call_id)
            with self._tracer.span("hintgate.upstream_call", {"tool": entry.upstream_name, "server": entry.server}):
                result = await self._forward(ctx, session, entry, facts, arguments, params, attempt)
            if is_task(result):
                result, deferred = await self._hand_off(ctx, session, entry, facts, state, arguments, result, attempt)
                if deferred:
                    return result
            result = await self._take(result, entry, facts, state, session, attempt, self._client_for(ctx))
            return result
        except UpstreamRequestError as exc:
            # The server's own JSON-RPC error reaches the client as it was sent: its words are read like a result's.
            guarded = await self._guard_error(exc, entry, facts, state, session, attempt)
            error = str(guarded)
            if guarded is exc:
                raise
            raise guarded from None
        except InputRequired as asked:
            # The source's question goes out; the client's next call, with the answer, is the one on record.
            required: dict[str, Any] = {"resultType": "input_required", "inputRequests": asked.requests}
            if approved_now:
                required["requestState"] = self._carry(entry, arguments, session, attempt, asked)
            return required
        except Exception as exc:
            error = str(exc)
            raise
        except asyncio.CancelledError:
            # It may have reached its server (not when withdrawn while asking): the record says so.
            error = WITHDRAWN if attempt.approval == "withdrawn" else CANCELLED
            raise
        finally:
            if not deferred and (result is not None or error is not None):
                await self._record(entry, ctx, session, arguments, result, error, attempt)

    async def _take(
        self,
        result: dict[str, Any],
        entry: CatalogEntry,
        facts: CallFacts,
        state: SessionState,
        session: ClientSession | None,
        attempt: CallAttempt,
        client: CallContext | None = None,
    ) -> dict[str, Any]:
        """A tool's result as the client gets it: scanned (and marked, redacted or withheld), tainting the session;
        for a client that declared the trust-annotations extension, with its claims (`sources.trust_annotations`).

        The upstream's own `_meta` never reaches the client; text the scan did not read counts as flagged.
        """
        returned = not result.get("isError") and bool(result.get("content") or result.get("structuredContent"))
        upstream = trust_claims(result)  # read before the guard changes the result: a claim, once made, stays
        guarded = await self.scanner.guard(result, action=self.on_result_finding, tool=entry.name)
        if guarded.findings:
            attempt.result_findings = tuple(f.to_json() for f in guarded.findings)
            attempt.result_action = self.on_result_finding.value
            logger.warning(
                "the result of %s speaks to the model or was not scanned whole (%s); %s it and tainted the session",
                entry.name,
                guarded.summary(),
                {"mark": "marked", "redact": "redacted", "block": "withheld"}[self.on_result_finding.value],
            )
        result = guarded.result
        if returned or guarded.findings or upstream:
            self._taint(facts, state, session, guarded.summary(), upstream.said() or None)
        if client is not None and client.declares(TRUST):
            # Someone else's words: a source not trusted, a tool that reaches the open world, or flagged content.
            untrusted = not facts.trusted or facts.open_world
            result = annotated(result, untrusted=untrusted, upstream=upstream, findings=attempt.result_findings or ())
        return result

    def _taint(
        self,
        facts: CallFacts,
        state: SessionState,
        session: ClientSession | None,
        finding: str | None,
        claim: str | None = None,
    ) -> None:
        state.mark_result(facts, self.settings, finding=finding, claim=claim)
        if session is not None and session.policy is not state:
            session.policy.mark_result(facts, self.settings, finding=finding, claim=claim)

    async def _guard_words(
        self,
        value: Mapping[str, Any],
        entry: CatalogEntry,
        facts: CallFacts,
        state: SessionState,
        session: ClientSession | None,
        what: str,
    ) -> dict[str, Any]:
        """`value` (an upstream's words besides a result: an error, a task's status or questions) as the client
        gets it: every string read by the scan, and redacted, withheld or marked as a result would be; a flagged
        or unread one taints the session. Withheld (`block`), or unread and not marked, a string is replaced whole.
        """
        texts = list(_strings(value))
        if not texts:
            return dict(value)
        found = await self.scanner.strings(texts, tool=entry.name)
        if found is None:  # not read within the deadline: every string counts as flagged
            unread = f"{what} was not scanned: the scan did not finish within {self.scanner.deadline:g} s"
            found = [
                ScanFinding(UNSCANNED, unread, "", 0, len(t), entry.name, severity=Level.HIGH, location=place)
                for place, t in texts
            ]
        high = high_findings(found)
        if not high:
            return dict(value)
        codes = ", ".join(sorted({f.code for f in high}))
        logger.warning(
            "%s of %s speaks to the model or was not scanned (%s); the session is tainted", what, entry.name, codes
        )
        self._taint(facts, state, session, f"{codes}: {high[0].message}")
        action = self.on_result_finding
        if action is OnResultFinding.MARK:
            return dict(value)
        changed = redacted(value, high) if action is OnResultFinding.REDACT else None
        if changed is None:  # withheld: every flagged string replaced whole
            places = {f.location for f in high}
            whole = (
                f"[hintgate withheld this text of {entry.name}: it speaks to the model or was not scanned ({codes})]"
            )
            changed = _replace_strings(value, places, whole)
        return dict(changed)

    async def _guard_error(
        self,
        exc: UpstreamRequestError,
        entry: CatalogEntry,
        facts: CallFacts,
        state: SessionState,
        session: ClientSession | None,
        attempt: CallAttempt,
    ) -> UpstreamRequestError:
        """The server's JSON-RPC error as the client gets it: its message and data read like a result."""
        words = {"message": exc.message, "data": exc.data}
        guarded = await self._guard_words(words, entry, facts, state, session, "the error message")
        if guarded == words:
            return exc
        attempt.result_action = self.on_result_finding.value
        message = guarded["message"] if isinstance(guarded["message"], str) else "the server's error was withheld"
        return UpstreamRequestError(message, code=exc.code, data=guarded["data"], server=exc.server)

    async def _hand_off(
        self,
        ctx: RequestContext | None,
        session: ClientSession | None,
        entry: CatalogEntry,
        facts: CallFacts,
        state: SessionState,
        arguments: Mapping[str, Any] | None,
        handle: dict[str, Any],
        attempt: CallAttempt,
    ) -> tuple[dict[str, Any], bool]:
        """An upstream answered with a task handle: the client holds it, or the gateway waits for the task's end.

        Returns what the client gets (its own handle; or, for a client that
        does not take handles, the tool's result once the task ended) and
        whether the record waits for the task's end.
        """

        async def finish(result: Mapping[str, Any] | None, error: str | None) -> CallOutcome:
            client = self._client_for(ctx)
            taken = (
                await self._take(dict(result), entry, facts, state, session, attempt, client)
                if result is not None
                else None
            )
            return await self._record(entry, ctx, session, arguments, taken, error, attempt, task=True)

        if self.tasks is None:
            return tool_error(
                f"The tool {entry.name!r} answered with a task, which this gateway does not route."
            ), False
        started = self._outcome(entry, ctx, session, arguments, None, None, attempt, task=True)
        return await self.tasks.started(ctx, session, entry, handle, finish, started)

    async def scan_task_result(
        self, ctx: RequestContext | None, entry: CatalogEntry, result: Mapping[str, Any]
    ) -> tuple[dict[str, Any], tuple[Mapping[str, Any], ...], str | None]:
        """A task's result seen to end away from the call that started it (another replica, or after it).

        Scanned as any result (`_take`), tainting the asking request's session; returns the result as the
        client gets it, the scan's findings and what was done about them.
        """
        session = self._sessions.for_request(ctx) if ctx is not None else None
        modern = ctx is not None and ctx.protocol_version in self._modern
        state = session.policy_state(connectionless=modern) if session is not None else SessionState()
        facts = CallFacts.from_entry(entry, None, session.principal if session is not None else None)
        # The call was decided when it started; this attempt only carries what the scan finds.
        decided = Decision(Verdict.ALLOW, "decided when its task started", DecisionSource.RULE)
        attempt = CallAttempt(decided, time.perf_counter(), datetime.now(UTC))
        taken = await self._take(dict(result), entry, facts, state, session, attempt, self._client_for(ctx))
        return taken, attempt.result_findings, attempt.result_action

    async def scan_task_words(
        self, ctx: RequestContext | None, entry: CatalogEntry | None, value: Mapping[str, Any]
    ) -> dict[str, Any]:
        """What a task's server says besides its result (its status message, its error, its input requests), as
        the client gets it: read like a result (`_guard_words`), tainting the asking request's session. Without
        the tool's entry (no longer listed) every string is withheld: nothing is passed on unread."""
        if entry is None:
            whole = "[hintgate withheld this text: its tool is no longer listed, so it could not be scanned]"
            return dict(_replace_strings(value, {place for place, _ in _strings(value)}, whole))
        session = self._sessions.for_request(ctx) if ctx is not None else None
        modern = ctx is not None and ctx.protocol_version in self._modern
        state = session.policy_state(connectionless=modern) if session is not None else SessionState()
        facts = CallFacts.from_entry(entry, None, session.principal if session is not None else None)
        return await self._guard_words(value, entry, facts, state, session, "the task's words")

    async def _record(
        self,
        entry: CatalogEntry,
        ctx: RequestContext | None,
        session: ClientSession | None,
        arguments: Mapping[str, Any] | None,
        result: dict[str, Any] | None,
        error: str | None,
        attempt: CallAttempt,
        *,
        task: bool = False,
    ) -> CallOutcome:
        """Count the call on its session and tell the observers how it ended; returns its outcome."""
        if session is not None:
            session.calls += 1
        outcome = self._outcome(entry, ctx, session, arguments, result, error, attempt, task=task)
        if not self.observers:
            return outcome
        with self._tracer.span("hintgate.record", {"tool": entry.name}):
            # An observer that returns an awaitable holds the answer until it is done:
            # durable recording sends the result once its record is committed.
            for waiting in self._tell(outcome):
                try:
                    await waiting
                except Exception:
                    logger.exception("call observer failed while the call waited for it")
        return outcome

    def _outcome(
        self,
        entry: CatalogEntry,
        ctx: RequestContext | None,
        session: ClientSession | None,
        arguments: Mapping[str, Any] | None,
        result: dict[str, Any] | None,
        error: str | None,
        attempt: CallAttempt,
        *,
        task: bool = False,
    ) -> CallOutcome:
        if error is None and result is not None and result.get("isError"):
            error = error_text(result)
        source = self._sources.get(entry.server)
        info = getattr(source, "info", None)
        request_id = ctx.request_id if ctx is not None else None
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
            arguments=arguments,
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
        )

    def _tell(self, outcome: CallOutcome) -> list[Awaitable[object]]:
        """Tell every observer; returns what they asked the call to wait for."""
        waits: list[Awaitable[object]] = []
        for observer in self.observers:
            try:
                waiting = observer.call_finished(outcome)
            except Exception:
                # An observer's failure must not turn an answered call into a failed one.
                logger.exception("call observer %r failed", observer)
                continue
            if waiting is not None:
                waits.append(waiting)
        return waits

    # -- asking ------------------------------------------------------------

    def _carry(
        self,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None,
        session: ClientSession | None,
        attempt: CallAttempt,
        asked: InputRequired,
    ) -> str:
        """The state a source's question carries when the call was approved in this request (sealed on its way out)."""
        return self.seals.carry(
            call=call_digest(entry.name, arguments),
            session_id=session.client_key if session is not None else None,
            person=_person(session),
            actor=attempt.actor or "client",
            via=attempt.asked_via,
            waited_ms=attempt.waited_ms,
            timeout=asked.open_for if asked.open_for is not None else self.settings.approval_timeout,
            now=time.time(),
        )

    async def _carried(
        self,
        entry: CatalogEntry,
        arguments: Mapping[str, Any] | None,
        session: ClientSession | None,
        attempt: CallAttempt,
        params: Mapping[str, Any],
    ) -> Outcome | None:
        """The approval this request's state carries for this very call, or None (then the call is asked about).

        The SDK's RequestStateBoundary has verified the seal (bound to the tool and its arguments) before
        this runs; `self.seals` makes it good once, for the same call, session and person, until its deadline.
        """
        echoed = params.get("requestState")
        if not ApprovalSeals.carries(echoed):
            return None
        carried = await self.seals.redeem_carried(
            echoed,
            call=call_digest(entry.name, arguments),
            session_id=session.client_key if session is not None else None,
            person=_person(session),
            now=time.time(),
        )
        if not carried.accepted:
            logger.warning("hintgate: %s: %s; it is asked about again", entry.name, carried.refusal)
            return None
        attempt.actor, attempt.asked_via, attempt.approval = carried.actor, carried.via, "once"
        attempt.waited_ms = carried.waited_ms
        return Outcome(
            Answer.APPROVE_ONCE,
            carried.actor,
            carried.waited_ms or 0.0,
            note="approved in an earlier request of this call",
        )

    async def _ask(
        self,
        ctx: RequestContext | None,
        entry: CatalogEntry,
        facts: CallFacts,
        attempt: CallAttempt,
        session: ClientSession | None,
        params: Mapping[str, Any],
    ) -> Outcome | dict[str, Any]:
        if ctx is not None and ctx.protocol_version in self._modern:
            carried = await self._carried(entry, facts.arguments, session, attempt, params)
            if carried is not None:
                return carried
        settings = self.settings_for(session.principal if session is not None else None)
        shown = warnings(facts, settings) if settings.show_hint_warnings else []
        title = entry.tool.display_name
        text = question(
            title=title,
            title_origin=entry.tool.title_origin.value,
            tool=entry.name,
            server=entry.server,
            arguments=facts.arguments,
            reason=attempt.decision.reason,
            warnings=shown,
            does=facts.does,
        )
        started = time.perf_counter()
        caller, approvers = self._approvers(session, attempt.decision)
        # Asking the client is asking the caller: only when they may answer their own call.
        caller_may = approvers is None or (caller is not None and approvers.refusal(caller, caller.key) is None)
        # Arguments too long to show whole in a client's question wait in the queue, where they are shown whole.
        short = len(arguments_text(facts.arguments)) <= ARGUMENTS_SHOWN
        if ctx is not None and caller_may and short and self._can_elicit(ctx):
            if ctx.protocol_version in self._modern:
                return await self._ask_in_result(attempt, session, params, text, started)
            attempt.asked_via = "elicitation"
            try:
                reply = await asyncio.wait_for(
                    self._client_for(ctx).client_request("elicitation/create", approval_form(text)),
                    self.settings.approval_timeout,
                )
            except TimeoutError:
                return self._timed_out(attempt, started)
            except Exception:
                reply = None
            return self._answered(attempt, answer_from_elicitation(reply), started)
        # Nobody could answer the queue: no dashboard or REST API is served, and no store keeps it.
        if self.settings.ask_via == "deny-unattended" and self.approvals_url is None and self.approvals.ledger is None:
            attempt.actor, attempt.waited_ms, attempt.approval = "unattended", 0.0, "denied"
            return Outcome(Answer.DENY, "unattended", 0.0)
        attempt.asked_via = "queue"
        probe = self._caller_probe(ctx) if ctx is not None and self._caller_probe is not None else None
        # One line on stderr, so a call waiting for a person never hangs silently.
        where = where_to_answer(self.approvals_url, self.approvals_command)
        approval_log.info(
            "hintgate: %s (server %s) waits for approval, up to %g s; %s",
            entry.name,
            entry.server,
            self.settings.approval_timeout,
            where,
        )
        heartbeat = asyncio.create_task(_keep_waiting(self._client_for(ctx), entry.name)) if ctx is not None else None
        try:
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
                caller_alive=probe,
                call_id=attempt.call_id,
                hints=attempt.hints if attempt.hints is not None else entry.snapshot,
                caller=caller.name if caller is not None else None,
                caller_key=caller.key if caller is not None else None,
                approvers=approvers,
                view=session.view if session else None,
            )
        except asyncio.CancelledError:
            # The client cancelled or closed its session: the approval is withdrawn, and the record says so.
            attempt.actor, attempt.approval = "client", "withdrawn"
            attempt.waited_ms = (time.perf_counter() - started) * 1000
            raise
        finally:
            if heartbeat is not None:
                heartbeat.cancel()
        attempt.actor, attempt.waited_ms = outcome.actor, outcome.waited_ms
        attempt.approval = _approval_name(outcome.answer)
        if outcome.withdrawn is not None or outcome.timed_out:
            attempt.approval = "withdrawn" if outcome.withdrawn is not None else "expired"
        return outcome

    async def _ask_in_result(
        self,
        attempt: CallAttempt,
        session: ClientSession | None,
        params: Mapping[str, Any],
        text: str,
        started: float,
    ) -> Outcome | dict[str, Any]:
        """The 2026-07-28 way: the question goes out in an InputRequiredResult, the answer comes on a new request.

        The SDK's RequestStateBoundary seals the state on the way out (bound to
        the tool and its arguments) and verifies it on the way back before
        this runs, so the client cannot forge it; `self.seals` makes the answer
        good once, for the session asked, until `approvalTimeout`.
        """
        # Bound to the client, not this replica's session object: the answer may come back through another.
        session_id = session.client_key if session is not None else None
        responses = params.get("inputResponses")
        echoed = params.get("requestState")
        if ApprovalSeals.is_ours(echoed) and isinstance(responses, Mapping):
            attempt.asked_via = "input-required"
            redeemed = await self.seals.redeem(echoed, session_id, now=time.time())
            if redeemed.late:
                return self._timed_out(attempt, started)
            if not redeemed.accepted:
                attempt.refusal = redeemed.refusal
                return self._answered(attempt, Answer.DENY, started)
            answer = answer_from_elicitation(responses.get(APPROVAL_KEY))
            # No session to approve for (see approval_form): a session answer approves this call only.
            return self._answered(attempt, Answer.APPROVE_ONCE if answer is Answer.APPROVE_SESSION else answer, started)
        form = approval_form(text, for_session=False)
        return {
            "resultType": "input_required",
            "inputRequests": {APPROVAL_KEY: {"method": "elicitation/create", "params": form}},
            "requestState": self.seals.mint(session_id, timeout=self.settings.approval_timeout, now=time.time()),
        }

    def _approvers(
        self, session: ClientSession | None, decision: Decision
    ) -> tuple[Principal | None, Approvers | None]:
        """Who made a call that asks, and who may answer it: None when the gateway knows no person.

        A person's call is answered by the deciding rule's approvers, else the global ones
        (`policy.approvers`), else anyone; and not by the person who made it unless the rule, else
        the global `policy.selfApproval`, says `selfApproval: true`.
        """
        caller = session.principal if session is not None else None
        if caller is None or caller.kind is not PrincipalKind.USER:
            return caller, None
        return caller, who_answers(decision, self.rules, self.settings)

    def _can_elicit(self, ctx: RequestContext) -> bool:
        if self.settings.ask_via == "queue":
            return False
        caps = ctx.session.client_capabilities
        elicitation = getattr(caps, "elicitation", None) if caps is not None else None
        if elicitation is None:
            return False
        # An empty elicitation capability means form mode (the spec's default).
        return getattr(elicitation, "form", None) is not None or getattr(elicitation, "url", None) is None

    def _answered(self, attempt: CallAttempt, answer: Answer, started: float) -> Outcome:
        waited = (time.perf_counter() - started) * 1000
        attempt.actor, attempt.waited_ms, attempt.approval = "client", waited, _approval_name(answer)
        return Outcome(answer, "client", waited)

    def _timed_out(self, attempt: CallAttempt, started: float) -> Outcome:
        waited = (time.perf_counter() - started) * 1000
        attempt.actor, attempt.waited_ms, attempt.approval = "timeout", waited, "expired"
        return Outcome(Answer.DENY, "timeout", waited, timed_out=True)

    def _denial(self, entry: CatalogEntry, attempt: CallAttempt, outcome: Outcome) -> str:
        return denial(
            entry.name,
            outcome,
            asked_via=attempt.asked_via,
            refusal=attempt.refusal,
            timeout=self.settings.approval_timeout,
            reason=attempt.decision.reason,
        )

    # -- forwarding --------------------------------------------------------

    async def _forward(
        self,
        ctx: RequestContext | None,
        session: ClientSession | None,
        entry: CatalogEntry,
        facts: CallFacts,
        arguments: Mapping[str, Any] | None,
        params: Mapping[str, Any],
        attempt: CallAttempt,
    ) -> dict[str, Any]:
        source = self._sources[entry.server]
        name = entry.name
        client = self._client_for(ctx)
        if ctx is not None and ctx.protocol_version in self._modern:
            client = _AskedInResult(client, params)
        given = params.get("_meta")
        meta = given if isinstance(given, Mapping) else None
        for tries in (1, 2):
            began = time.perf_counter()
            try:
                result = await source.call_tool(entry.upstream_name, arguments, meta=meta, context=client)
            except UpstreamRequestError:
                attempt.add_upstream_time(began)
                raise
            except UpstreamError as exc:
                attempt.add_upstream_time(began)
                # Transient failures are retried once, only for tools that are safe to repeat.
                # A closed connection leaves the source's status UP until it notices: the retry waits for a new one.
                stale = source.status if isinstance(exc, UpstreamClosed) else None
                if tries == 1 and should_retry(facts, failure_kind(exc)) and await self._back_up(entry.server, stale):
                    # The failed attempt is a call of its own on record; the retry names it as its parent.
                    await self._record(entry, ctx, session, arguments, None, f"{exc} (retried)", attempt)
                    attempt.parent_call_id, attempt.call_id = attempt.call_id, str(uuid.uuid4())
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
            return result
        raise AssertionError("unreachable")  # pragma: no cover

    async def _back_up(self, server: str, stale: SourceStatus | None) -> bool:
        """Wait (bounded) for a source to be up again, on a status other than `stale`; True when it is."""
        source = self._sources[server]
        deadline = time.monotonic() + min(_RETRY_WAIT, source.call_timeout)
        while time.monotonic() < deadline:
            if source.status.state is SourceState.UP and source.status is not stale:
                return True
            await asyncio.sleep(0.05)
        return False


_PROGRESS_EVERY = 5.0  # seconds between progress notifications while a call waits for a person


async def _keep_waiting(client: CallContext, tool: str) -> None:
    """Send progress while a call waits, so a client that resets its timeout on progress keeps waiting."""
    for beat in range(1, 100_000):
        await asyncio.sleep(_PROGRESS_EVERY)
        await client.progress(beat * _PROGRESS_EVERY, None, f"{tool} waits for a person to approve it")


def _person(session: ClientSession | None) -> str | None:
    """The key of the person whose session it is (None without one): a carried approval is theirs alone."""
    principal = session.principal if session is not None else None
    return principal.key if principal is not None else None


def _approval_name(answer: Answer) -> str:
    return {Answer.APPROVE_ONCE: "once", Answer.APPROVE_SESSION: "session", Answer.DENY: "denied"}[answer]


_ANSWERS = {
    Answer.APPROVE_ONCE: "approved once",
    Answer.APPROVE_SESSION: "approved for the session",
    Answer.DENY: "denied",
}


def _log_answer(entry: CatalogEntry, attempt: CallAttempt, outcome: Outcome, timeout: float) -> None:
    """One line on stderr when a call asked about is answered, expires or is withdrawn: the end of its wait line."""
    waited = f"after {(outcome.waited_ms or 0) / 1000:.1f} s"
    if outcome.timed_out:
        said = f"expired: nobody answered within {timeout:g} s; it did not run"
    elif outcome.withdrawn is not None:
        said = f"withdrawn {waited}: {outcome.withdrawn}"
    else:
        by = attempt.asked_via or "queue"
        note = f" ({outcome.note})" if outcome.note else ""
        said = f"{_ANSWERS[outcome.answer]} by {outcome.actor} via {by} {waited}{note}"
    # Beside the wait line (`APPROVAL_LOG`); nobody answering is worth a warning, an answer is routine.
    level = logging.WARNING if outcome.timed_out else logging.INFO
    approval_log.log(level, "hintgate: %s (server %s) %s", entry.name, entry.server, said)


def _strings(value: Any, location: Location = (), depth: int = 0) -> Iterator[tuple[Location, str]]:
    """Every string of a JSON value (keys of mappings too), with its place; a value nested past 32 levels is
    given as its JSON text at its place, so that it is read (and replaced whole when flagged)."""
    if isinstance(value, str):
        yield location, value
    elif depth > 32 and isinstance(value, Mapping | list):
        yield location, json.dumps(value, default=str)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and location:
                yield (*location, Key(key)), key
            yield from _strings(item, (*location, key), depth + 1)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, (*location, i), depth + 1)


def _replace_strings(value: Any, places: set[Location | None], whole: str, location: Location = ()) -> Any:
    """`value` with the strings (and keys) at `places` replaced by `whole` (a copy; the rest shared)."""
    if location in places:
        return whole
    if isinstance(value, Mapping):
        return {
            (whole if (*location, Key(key)) in places else key): _replace_strings(item, places, whole, (*location, key))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_replace_strings(item, places, whole, (*location, i)) for i, item in enumerate(value)]
    return value
