"""The first stage of a call: what the policy knows of it, and the decision, as one value (`Decided`).

Every call is decided here (`Deciding.decide`): its session is opened, its facts taken (its hints judged
from its arguments, and by its server when the server resolves calls itself), and the policy in force
for its caller decides; a call whose arguments fail its tool's input schema is denied before anyone is
asked. The HTTP fast path decides ahead (`Deciding.decided_now`, without waiting) and hands the
`Decided` call on; the pipeline takes it as the call's own while it stands (`Decided.stands_for`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from hintgate.arguments import argument_problem
from hintgate.errors import UpstreamError
from hintgate.hints.annotations import Hint
from hintgate.hints.calls.bound import judgement_of, weigh_upstream
from hintgate.policy.decide import UNSET, CallFacts, Decision, DecisionSource, SessionState, decide
from hintgate.policy.rules import Verdict
from hintgate.sources.capabilities import Resolves
from hintgate.sources.resolution import answer_hints, marked

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry
    from hintgate.outcome import Tracer
    from hintgate.pipeline.call_policy import CallPolicy
    from hintgate.policy.own_places import OwnPlaces
    from hintgate.policy.principal import Principal
    from hintgate.policy.rules import PolicySettings, Rule
    from hintgate.request_context import RequestContext
    from hintgate.session import ClientSession
    from hintgate.sources.base import CallContext, Source

__all__ = ["Decided", "Deciding", "SessionLookup"]

logger = logging.getLogger(__name__)

_RESOLVE_WAIT = 5.0  # seconds an upstream's tools/resolve may take; resolving is meant to be cheaper than the call


class SessionLookup(Protocol):
    """Finds the client session of a request (`hintgate.server.sessions.SessionTracker`)."""

    def for_request(self, ctx: Any) -> ClientSession:
        """The session the request belongs to, opened on first sight."""


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

    `Deciding.decide` takes one for every call; the HTTP fast path takes one ahead
    (`Deciding.decided_now`), sends a call that asks the way that can wait, and hands the
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


@dataclass(frozen=True, slots=True, eq=False)
class Deciding:
    """Takes a call's facts and decides it under the policy in force for its caller.

    Attributes:
        sources: the sources by name (the gateway's own mapping: it may change as sources come and go).
        sessions: finds the client session of a request.
        policy: the policy in force.
        places: gives the gateway's own places (a call naming them asks; they are set as it starts listening).
        modern_versions: protocol versions of connectionless requests (their session state is a copy).
        client_for: gives the client side of a request's call (a server's `tools/resolve` may ask it things).
        tracer: opens the decision's span.
    """

    sources: Mapping[str, Source]
    sessions: SessionLookup
    policy: CallPolicy
    places: Callable[[], OwnPlaces]
    modern_versions: frozenset[str]
    client_for: Callable[[RequestContext | None], CallContext]
    tracer: Tracer

    def decided_now(
        self, ctx: RequestContext, entry: CatalogEntry, arguments: Mapping[str, Any] | None
    ) -> Decided | None:
        """The call decided now, without waiting; None when deciding it must wait (the path that can wait takes it).

        Its server resolves the call first (`tools/resolve`), or its arguments are judged on a worker thread:
        both are awaited. Nothing changes but the request's session being opened, as the call would open it.
        Handed to the call in the same step of the event loop (`ToolCalls.__call__`), the decision is the call's.
        """
        session = self.sessions.for_request(ctx)
        settings = self.policy.settings
        if self._asks_upstream(entry, arguments) or (
            settings.judge_arguments and entry.tool.judge is not None and entry.tool.judge.heavy(arguments)
        ):
            return None
        connectionless = ctx.protocol_version in self.modern_versions
        state = session.policy_state(connectionless=connectionless)
        named = self.places().named_in(arguments)
        judged = UNSET if settings.judge_arguments else None
        facts = CallFacts.from_entry(entry, arguments, session.principal, names_gateway=named, judgement=judged)
        # A connectionless state is the call's own copy: the call takes another, and decides on it.
        step = None if connectionless else _Step()
        return self._decided(ctx, entry, arguments, session, state, facts, step)

    async def decide(
        self, ctx: RequestContext | None, entry: CatalogEntry, arguments: Mapping[str, Any] | None
    ) -> Decided:
        """Decide one call of `entry` with `arguments`.

        The request's session is opened; the facts are taken (`facts`: judged from the arguments, and by
        the call's server when it resolves calls); the policy decides under the settings in force for the caller.
        """
        session = self.sessions.for_request(ctx) if ctx is not None else None
        modern = ctx is not None and ctx.protocol_version in self.modern_versions
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
        settings = self.policy.settings_for(session.principal if session is not None else None)
        rules = self.policy.rules
        with self.tracer.span("hintgate.decide", {"tool": entry.name}):
            # A call its server would reject is refused before anyone is asked to approve it.
            problem = argument_problem(entry.tool.raw.get("inputSchema"), arguments)
            if problem is not None:
                reason = f"The arguments do not match the tool's input schema: {problem}"
                decision = Decision(Verdict.DENY, reason, DecisionSource.INPUT_SCHEMA)
            else:
                decision = decide(facts, state, settings, rules, now=now)
        return Decided(ctx, entry, arguments, session, state, facts, settings, rules, decision, now, step)

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
        named = self.places().named_in(arguments)
        if not self.policy.settings.judge_arguments:
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
        source = self.sources.get(entry.server)
        return (
            self.policy.settings.judge_arguments
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
        source = self.sources.get(entry.server)
        if not isinstance(source, Resolves):  # reloaded into a source that does not resolve
            return facts
        params = {"name": entry.upstream_name, "arguments": dict(arguments or {})}
        wait = min(_RESOLVE_WAIT, source.call_timeout)
        try:
            async with asyncio.timeout(wait):
                answer = await source.request("tools/resolve", params, context=self.client_for(ctx))
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


def _act_phrase(hints: Mapping[Hint, bool]) -> str:
    if hints[Hint.READ_ONLY]:
        return "read-only"
    return "destructive" if hints[Hint.DESTRUCTIVE] else "additive"
