"""The stage that asks a person about a call the policy asks about, and takes their answer.

The client is asked through MCP elicitation when it declared support (`elicitation/create` on
2025-11-25 connections; on 2026-07-28 ones an `InputRequiredResult` whose sealed `requestState` it
cannot forge, answered once, by the session asked, before `approvalTimeout`: see
`hintgate.policy.seals`), and only when the caller may answer their own call; otherwise, or when the
policy says so, the call waits in the approval queue that the REST API and the dashboard answer, bound to
a caller still waiting for it (a queued call whose caller is gone is withdrawn). No answer in time means
deny. When a call approved in one request is asked something by its source, the question's sealed state
carries the approval (`carry`): the answering request of the same call, session and person runs without
being asked again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

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
from hintgate.policy.decide import who_answers
from hintgate.policy.explain import warnings
from hintgate.policy.principal import PrincipalKind
from hintgate.policy.seals import ApprovalSeals, call_digest

if TYPE_CHECKING:
    from hintgate.errors import InputRequired
    from hintgate.hints.catalog import CatalogEntry
    from hintgate.outcome import CallAttempt
    from hintgate.pipeline.call_policy import CallPolicy
    from hintgate.pipeline.deciding import Decided
    from hintgate.policy.decide import Decision
    from hintgate.policy.principal import Approvers, Principal
    from hintgate.request_context import RequestContext
    from hintgate.session import ClientSession
    from hintgate.sources.base import CallContext

__all__ = ["ApprovalDesk", "Asking"]

logger = logging.getLogger(__name__)
approval_log = logging.getLogger(APPROVAL_LOG)  # a call waiting for a person, and how its wait ended

_PROGRESS_EVERY = 5.0  # seconds between progress notifications while a call waits for a person


class ApprovalDesk(Protocol):
    """Where a call that asks waits and is answered (`ToolCalls` is one), read anew by every call."""

    @property
    def approvals(self) -> ApprovalQueue:
        """Calls waiting for a person."""

    @property
    def seals(self) -> ApprovalSeals:
        """Seals and redeems the approvals that travel in a 2026-07-28 request's state."""

    @property
    def approvals_url(self) -> str | None:
        """Where a person answers them (the dashboard's approvals page), when one is served."""

    @property
    def approvals_command(self) -> str | None:
        """The command that answers them from a terminal, when they are in a store."""


@dataclass(frozen=True, slots=True, eq=False)
class Asking:
    """Asks about a call and takes the answer: the session remembers an approval; a denial says why.

    Attributes:
        desk: where calls wait and are answered.
        policy: the policy in force (timeouts, how to ask, approvers, warnings shown).
        modern_versions: protocol versions whose clients are asked in the result (`InputRequiredResult`).
        client_for: gives the client side of a request's call (where elicitation and progress go).
        caller_probe: gives, for a request, a check that its result can still reach the caller
            (None when it cannot tell); a queued call whose caller is gone is withdrawn.
    """

    desk: ApprovalDesk
    policy: CallPolicy
    modern_versions: frozenset[str]
    client_for: Callable[[RequestContext | None], CallContext]
    caller_probe: Callable[[RequestContext], Callable[[], bool] | None] | None

    async def ask(self, call: Decided, attempt: CallAttempt, params: Mapping[str, Any]) -> Outcome | dict[str, Any]:
        """The answer to a call that asks (who answered, how and how long it took go on `attempt`), or, for a
        2026-07-28 client, the `InputRequiredResult` that asks it. An approval is remembered by the session."""
        answered = await self._answer(call, attempt, params)
        if isinstance(answered, dict):
            return answered
        entry, state = call.entry, call.state
        _log_answer(entry, attempt, answered, self.policy.settings.approval_timeout)
        if answered.approved:
            state.approve_once(entry.name)
            if answered.answer is Answer.APPROVE_SESSION:
                state.approve_for_session(entry.name)
            state.record_approval(entry.name, call.arguments or {}, call.now, call_id=attempt.call_id)
        return answered

    def denial(self, entry: CatalogEntry, attempt: CallAttempt, outcome: Outcome) -> str:
        """What the client reads when the call it asked about was not approved."""
        return denial(
            entry.name,
            outcome,
            asked_via=attempt.asked_via,
            refusal=attempt.refusal,
            timeout=self.policy.settings.approval_timeout,
            reason=attempt.decision.reason,
        )

    def carry(self, call: Decided, attempt: CallAttempt, asked: InputRequired) -> str:
        """The state a source's question carries when the call was approved in this request (sealed on its way out)."""
        session = call.session
        return self.desk.seals.carry(
            call=call_digest(call.entry.name, call.arguments),
            session_id=session.client_key if session is not None else None,
            person=_person(session),
            actor=attempt.actor or "client",
            via=attempt.asked_via,
            waited_ms=attempt.waited_ms,
            timeout=asked.open_for if asked.open_for is not None else self.policy.settings.approval_timeout,
            now=time.time(),
        )

    async def _answer(self, call: Decided, attempt: CallAttempt, params: Mapping[str, Any]) -> Outcome | dict[str, Any]:
        ctx, entry, facts, session = call.ctx, call.entry, call.facts, call.session
        if ctx is not None and ctx.protocol_version in self.modern_versions:
            carried = await self._carried(entry, facts.arguments, session, attempt, params)
            if carried is not None:
                return carried
        settings = self.policy.settings_for(session.principal if session is not None else None)
        shown = warnings(facts, settings) if settings.show_hint_warnings else []
        text = question(
            title=entry.tool.display_name,
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
            if ctx.protocol_version in self.modern_versions:
                return await self._ask_in_result(attempt, session, params, text, started)
            return await self._elicit(ctx, attempt, text, started)
        # Nobody could answer the queue: no dashboard or REST API is served, and no store keeps it.
        unattended = self.desk.approvals_url is None and self.desk.approvals.ledger is None
        if self.policy.settings.ask_via == "deny-unattended" and unattended:
            attempt.actor, attempt.waited_ms, attempt.approval = "unattended", 0.0, "denied"
            return Outcome(Answer.DENY, "unattended", 0.0)
        return await self._queue(call, attempt, shown, caller, approvers, started)

    async def _elicit(self, ctx: RequestContext, attempt: CallAttempt, text: str, started: float) -> Outcome:
        """The handshake-era way: the client is asked with `elicitation/create`, within the approval timeout."""
        attempt.asked_via = "elicitation"
        try:
            async with asyncio.timeout(self.policy.settings.approval_timeout):
                reply = await self.client_for(ctx).client_request("elicitation/create", approval_form(text))
        except TimeoutError:
            return _timed_out(attempt, started)
        except Exception:
            reply = None
        return _answered(attempt, answer_from_elicitation(reply), started)

    async def _queue(
        self,
        call: Decided,
        attempt: CallAttempt,
        shown: list[str],
        caller: Principal | None,
        approvers: Approvers | None,
        started: float,
    ) -> Outcome:
        """The call waits in the approval queue, for its caller while they are still waiting for it."""
        ctx, entry, session = call.ctx, call.entry, call.session
        settings = self.policy.settings
        attempt.asked_via = "queue"
        probe = self.caller_probe(ctx) if ctx is not None and self.caller_probe is not None else None
        # One line on stderr, so a call waiting for a person never hangs silently.
        where = where_to_answer(self.desk.approvals_url, self.desk.approvals_command)
        approval_log.info(
            "hintgate: %s (server %s) waits for approval, up to %g s; %s",
            entry.name,
            entry.server,
            settings.approval_timeout,
            where,
        )
        heartbeat = asyncio.create_task(_keep_waiting(self.client_for(ctx), entry.name)) if ctx is not None else None
        try:
            outcome = await self.desk.approvals.wait(
                tool=entry.name,
                title=entry.tool.display_name,
                title_origin=entry.tool.title_origin.value,
                server=entry.server,
                arguments=call.facts.arguments,
                reason=attempt.decision.reason,
                warnings=shown,
                session_id=session.id if session else None,
                client_name=session.client_name if session else None,
                timeout=settings.approval_timeout,
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
        this runs; the seals make it good once, for the same call, session and person, until its deadline.
        """
        echoed = params.get("requestState")
        if not ApprovalSeals.carries(echoed):
            return None
        carried = await self.desk.seals.redeem_carried(
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
        this runs, so the client cannot forge it; the seals make the answer
        good once, for the session asked, until `approvalTimeout`.
        """
        seals = self.desk.seals
        # Bound to the client, not this replica's session object: the answer may come back through another.
        session_id = session.client_key if session is not None else None
        responses = params.get("inputResponses")
        echoed = params.get("requestState")
        if ApprovalSeals.is_ours(echoed) and isinstance(responses, Mapping):
            attempt.asked_via = "input-required"
            redeemed = await seals.redeem(echoed, session_id, now=time.time())
            if redeemed.late:
                return _timed_out(attempt, started)
            if not redeemed.accepted:
                attempt.refusal = redeemed.refusal
                return _answered(attempt, Answer.DENY, started)
            answer = answer_from_elicitation(responses.get(APPROVAL_KEY))
            # No session to approve for (see approval_form): a session answer approves this call only.
            return _answered(attempt, Answer.APPROVE_ONCE if answer is Answer.APPROVE_SESSION else answer, started)
        form = approval_form(text, for_session=False)
        timeout = self.policy.settings.approval_timeout
        return {
            "resultType": "input_required",
            "inputRequests": {APPROVAL_KEY: {"method": "elicitation/create", "params": form}},
            "requestState": seals.mint(session_id, timeout=timeout, now=time.time()),
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
        return caller, who_answers(decision, self.policy.rules, self.policy.settings)

    def _can_elicit(self, ctx: RequestContext) -> bool:
        if self.policy.settings.ask_via == "queue":
            return False
        caps = ctx.session.client_capabilities
        elicitation = getattr(caps, "elicitation", None) if caps is not None else None
        if elicitation is None:
            return False
        # An empty elicitation capability means form mode (the spec's default).
        return getattr(elicitation, "form", None) is not None or getattr(elicitation, "url", None) is None


def _answered(attempt: CallAttempt, answer: Answer, started: float) -> Outcome:
    waited = (time.perf_counter() - started) * 1000
    attempt.actor, attempt.waited_ms, attempt.approval = "client", waited, _approval_name(answer)
    return Outcome(answer, "client", waited)


def _timed_out(attempt: CallAttempt, started: float) -> Outcome:
    waited = (time.perf_counter() - started) * 1000
    attempt.actor, attempt.waited_ms, attempt.approval = "timeout", waited, "expired"
    return Outcome(Answer.DENY, "timeout", waited, timed_out=True)


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
