"""The approval queue: calls waiting for a person to say yes or no.

When the policy says ask and the client cannot be asked (no elicitation
support), or the operator wants approvals in the dashboard, the call waits
here. The REST API and the dashboard list what waits and answer it; no answer
within the timeout means deny (fail closed).

A call waits only while someone waits for its result: when the client
cancels, closes its session or loses its response stream, the approval is
withdrawn and the call never runs. An approval that left the queue is
remembered for a while (bounded), so answering it late says why it is gone.

With a `Ledger` (the store's `approvals` table) the queue is shared: every
approval is written there, any replica or the CLI answers it there (one
atomic update: of two racing answers exactly one wins), and the in-process
future only wakes the local waiter. The ledger tells the queue about answers
made elsewhere; the queue settles timeouts (`expired`) and withdrawals there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from hintgate.errors import HintgateError, NotAnApprover
from hintgate.policy.principal import Approvers, Principal
from hintgate.random_ids import random_id

__all__ = [
    "Answer",
    "ApprovalQueue",
    "Ended",
    "Ledger",
    "Outcome",
    "PendingApproval",
    "Settlement",
    "answered_reason",
    "call_does",
    "note_in",
]

logger = logging.getLogger(__name__)

_REMEMBERED = 500  # approvals that left the queue kept to explain a late answer
_CALLER_CHECK = 0.25  # seconds between checks that the caller still waits for the result
_TAKEN_WAIT = 10.0  # seconds an answer waits to learn whether its waiter took it (one loop turn, or a store write)


class Answer(enum.StrEnum):
    """What a person can answer."""

    APPROVE_ONCE = "approve-once"
    APPROVE_SESSION = "approve-session"
    DENY = "deny"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a wait ended.

    Attributes:
        answer: the answer, DENY when it timed out.
        actor: who answered ("dashboard", "api", "client", "timeout").
        waited_ms: how long the call waited.
        timed_out: True when nobody answered in time.
        withdrawn: why the call was withdrawn (its caller is gone), None otherwise.
        note: what the person who answered said (a denial's reason), or that the approval was
            carried from an earlier request of the same call; None when there is nothing to add.
    """

    answer: Answer
    actor: str
    waited_ms: float
    timed_out: bool = False
    withdrawn: str | None = None
    note: str | None = None

    @property
    def approved(self) -> bool:
        """Whether the call may run."""
        return self.answer is not Answer.DENY and self.withdrawn is None


@dataclass(frozen=True, slots=True)
class Ended:
    """How an approval left the queue.

    Attributes:
        state: `approved`, `denied`, `expired` or `withdrawn`.
        reason: what moved it there, in words.
        note: what the person who answered said (a denial's reason), or that the approval was
            carried from an earlier request of the same call; None when there is nothing to add.
        won: this answer is the one that moved it (False: another got there first, `state` says what won).
        answer: the person's answer, when one answered.
        actor: who moved it.
    """

    state: str
    reason: str
    won: bool = False
    note: str | None = None
    answer: Answer | None = None
    actor: str | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """How an approval is to leave the queue: what a `Ledger` is asked to write, atomically.

    Attributes:
        end: the end to write (its state, reason, answer, actor and note); what the ledger returns, `won`,
            when this settlement is the one that moved the approval.
        via: how it was moved: `api`, `cli`, `caller` (its call went away), `timeout`.
        replace: the states besides `pending` it may move the approval from.
    """

    end: Ended
    via: str
    replace: tuple[str, ...] = ()

    @classmethod
    def answered(cls, answer: Answer, actor: str, via: str, note: str | None) -> Settlement:
        """A person's answer: approved, or denied for `Answer.DENY`; its reason in `answered_reason`'s words."""
        state = "denied" if answer is Answer.DENY else "approved"
        reason = answered_reason(state, actor, via, note)
        return cls(Ended(state, reason, note=note, answer=answer, actor=actor), via)

    def won(self) -> Ended:
        """How the approval ended when this settlement is the one that moved it."""
        return dataclasses.replace(self.end, won=True)


@dataclass(slots=True)
class PendingApproval:
    """One call waiting for an answer."""

    id: str
    tool: str
    title: str
    server: str
    arguments: Mapping[str, Any] | None
    reason: str
    warnings: list[str]
    session_id: str | None
    client_name: str | None
    created_at: datetime
    expires_at: datetime
    _future: asyncio.Future[tuple[Answer, str, str | None]] | None = field(repr=False)
    """Wakes the waiting call; None for an approval another process waits for."""
    _started: float = field(default_factory=time.monotonic, repr=False)
    title_origin: str = "declared"
    """Who gave the title (`hintgate.hints.titles.TitleOrigin`): a server's title is only its claim."""
    caller_alive: Callable[[], bool] | None = field(default=None, repr=False)
    """Whether the result can still reach the caller (None: always, as far as hintgate can tell)."""
    call_id: str | None = None
    """The id the call is recorded under once it ends."""
    hints: Mapping[str, Any] | None = field(default=None, repr=False)
    """The tool's hints, provenance and tier when it was asked."""
    replica: str | None = None
    """The gateway instance whose call waits (None: this one, without a shared ledger)."""
    _taken: asyncio.Future[Ended] | None = field(default=None, repr=False)
    """How the local wait ended, once it has: an answer learns from it whether its call will run."""
    caller: str | None = None
    """The name of the person who made the call (None when the gateway knows no users)."""
    caller_key: str | None = None
    """Who that person is (`Principal.key`): the person who may not answer their own call. None when the
    gateway knows no users, or for a call recorded before people had keys (then `caller` stands in)."""
    approvers: Approvers | None = None
    """Who may answer it (None: anyone who reaches the queue)."""
    view: str | None = None
    """The view the calling session was served (`/mcp/NAME`); None for the whole catalog."""

    @property
    def does(self) -> str | None:
        """What the call does, judged from its arguments ("DROP TABLE users; destructive"), when it was."""
        return call_does(self.hints)

    @property
    def caller_connected(self) -> bool:
        """Whether the caller still waits for the result."""
        if self.caller_alive is None:
            return True
        try:
            return self.caller_alive()
        except Exception:  # a probe that cannot tell must not withdraw a call
            return True


def call_does(hints: Mapping[str, Any] | None) -> str | None:
    """What a call does, from the hints it was asked with (a call judged by its arguments keeps it as `does`)."""
    does = hints.get("does") if isinstance(hints, Mapping) else None
    return does if isinstance(does, str) else None


class Ledger(Protocol):
    """Where a shared queue keeps its approvals (`hintgate.store.approvals.StoredApprovals`)."""

    replica: str
    """This gateway instance, stamped on the approvals it holds."""

    async def add(self, approval: PendingApproval) -> None:
        """Write a new pending approval."""

    async def settle(self, approval_id: str, settlement: Settlement) -> Ended | None:
        """Move a pending approval (or one in a `replace` state) to the settlement's state, atomically.

        Returns:
            `won=True` when this moved it; else what holds now. None when there is no such approval.
        """

    async def pending(self) -> list[PendingApproval]:
        """Every pending approval of every replica, oldest first."""

    def watch(self, approval_id: str, on_settled: Callable[[Ended], None]) -> None:
        """Call `on_settled` once when the approval is settled elsewhere (by another replica or process)."""

    def unwatch(self, approval_id: str) -> None:
        """Stop watching an approval."""


class ApprovalQueue:
    """Pending approvals, answered from outside, each bounded by a timeout.

    Args:
        on_change: called after an approval is added or leaves the queue (to update dashboards).
        ledger: the shared store of approvals; None keeps them in this process only.

    Attributes:
        ledger: the shared store of approvals, if any.
        known: how many approvals wait on every replica, as last listed (this process's count without a ledger).
    """

    def __init__(self, *, on_change: Callable[[], None] | None = None, ledger: Ledger | None = None) -> None:
        self._pending: dict[str, PendingApproval] = {}
        self._ended: OrderedDict[str, Ended] = OrderedDict()
        self._on_change = on_change
        self.ledger = ledger
        self._shared = 0
        self._background: set[asyncio.Task[Any]] = set()
        # Waiting here, though the ledger could not take them: listed and answered by this process alone.
        self._unshared: set[str] = set()
        # Being written to the ledger: listed from this process until the ledger lists them; answers wait for it.
        self._writing: dict[str, asyncio.Event] = {}

    @property
    def known(self) -> int:
        """How many approvals wait, on every replica as far as the last listing knows."""
        return max(self._shared, len(self._pending)) if self.ledger is not None else len(self._pending)

    def pending(self) -> list[PendingApproval]:
        """What waits in this process, oldest first."""
        return sorted(self._pending.values(), key=lambda p: p.created_at)

    async def listing(self) -> list[PendingApproval]:
        """What waits on every replica sharing the ledger (this process's own without one), oldest first.

        Every approval waiting in this process is listed too: one the ledger could not take waits here only,
        and one still being written is in the ledger a moment later (hiding it meanwhile would show a person
        an empty queue while a call waits for them).

        Raises:
            HintgateError: the ledger cannot be read.
        """
        if self.ledger is None:
            return self.pending()
        found = [self._pending.get(p.id, p) for p in await self.ledger.pending()]
        self._shared = len(found)
        listed = {p.id for p in found}
        here = [p for key, p in list(self._pending.items()) if key not in listed]
        return sorted(found + here, key=lambda p: p.created_at) if here else found

    def get(self, approval_id: str) -> PendingApproval | None:
        """A pending approval by id."""
        return self._pending.get(approval_id)

    def ended(self, approval_id: str) -> Ended | None:
        """How a recent approval left the queue, or is leaving it (None when unknown or still answerable)."""
        approval = self._pending.get(approval_id)
        future = approval._future if approval is not None else None
        if approval is not None and future is not None and not future.done() and not approval.caller_connected:
            return Ended("withdrawn", _GONE)
        return self._ended.get(approval_id)

    def __len__(self) -> int:
        return len(self._pending)

    async def wait(
        self,
        *,
        tool: str,
        title: str,
        server: str,
        arguments: Mapping[str, Any] | None,
        reason: str,
        warnings: list[str],
        session_id: str | None,
        client_name: str | None,
        timeout: float,
        title_origin: str = "declared",
        caller_alive: Callable[[], bool] | None = None,
        call_id: str | None = None,
        hints: Mapping[str, Any] | None = None,
        caller: str | None = None,
        approvers: Approvers | None = None,
        view: str | None = None,
        caller_key: str | None = None,
    ) -> Outcome:
        """Queue a call and wait for an answer, at most `timeout` seconds (then deny).

        `caller` made the call (their name; `caller_key` who they are); `approvers` say who may answer it
        (see `respond`); `view` is the view its session was served.

        `caller_alive` tells whether the result can still reach the caller; once
        it says no, the approval is withdrawn. Cancelling the wait (the client
        cancelled, or closed its session) withdraws it too.
        """
        now = datetime.now(UTC)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[tuple[Answer, str, str | None]] = loop.create_future()
        taken: asyncio.Future[Ended] = loop.create_future()
        approval = PendingApproval(
            id=random_id(),
            tool=tool,
            title=title,
            server=server,
            arguments=arguments,
            reason=reason,
            warnings=warnings,
            session_id=session_id,
            client_name=client_name,
            created_at=now,
            expires_at=datetime.fromtimestamp(now.timestamp() + timeout, UTC),
            _future=future,
            title_origin=title_origin,
            caller_alive=caller_alive,
            call_id=call_id,
            hints=hints,
            replica=self.ledger.replica if self.ledger is not None else None,
            _taken=taken,
            caller=caller,
            caller_key=caller_key,
            approvers=approvers,
            view=view,
        )
        self._pending[approval.id] = approval
        ended = Ended("withdrawn", _CANCELLED)
        settled = shared = False
        # Until the ledger answers, a cancellation may land after it wrote the row: withdraw it then too.
        stored = self.ledger is not None
        written = self._writing[approval.id] = asyncio.Event()
        try:
            try:
                shared = stored = await self._share(approval)
            finally:
                del self._writing[approval.id]
                written.set()
            if not shared and self.ledger is not None:
                self._unshared.add(approval.id)
            self._changed()
            outcome = await self._await_answer(approval, timeout)
            if shared and self.ledger is not None:
                self.ledger.unwatch(approval.id)  # what this replica settles next is no news to it
            if outcome.withdrawn is not None:
                ended = Ended("withdrawn", outcome.withdrawn)
            elif outcome.timed_out:
                ended = Ended("expired", f"nobody answered within {timeout:g} s")
            else:
                verb = "approved" if outcome.approved else "denied"
                ended = Ended(verb, f"{verb} by {outcome.actor}")
                settled = True  # answers are settled in the ledger before they wake the waiter
            if shared and not settled:
                outcome, ended = await self._settle_end(approval, outcome, ended)
            settled = True
            return outcome
        finally:
            if shared and self.ledger is not None:
                self.ledger.unwatch(approval.id)
                self._shared = max(0, self._shared - 1)
            if stored and not settled:  # cancelled: the ledger is told in the background, the cancellation goes on
                self._in_background(self._withdraw(approval.id, ended.reason))
            if future.done() and not future.cancelled():
                future.exception()  # an expiry or withdrawal heard too late is nobody's error
            if not taken.done():
                taken.set_result(ended)
            self._pending.pop(approval.id, None)
            self._unshared.discard(approval.id)
            self._ended[approval.id] = ended
            while len(self._ended) > _REMEMBERED:
                self._ended.popitem(last=False)
            self._changed()

    async def _share(self, approval: PendingApproval) -> bool:
        """Write the approval to the ledger and watch for answers made elsewhere; False without one."""
        if self.ledger is None:
            return False
        try:
            await self.ledger.add(approval)
        except HintgateError as exc:
            logger.warning("the approval of %s stays in this process only: %s", approval.tool, exc)
            return False
        self._shared += 1
        self.ledger.watch(approval.id, lambda ended: self._settled_elsewhere(approval, ended))
        return True

    def _settled_elsewhere(self, approval: PendingApproval, ended: Ended) -> None:
        """Another replica or process settled the approval: wake the waiter with what it decided."""
        future = approval._future
        if future is None or future.done():
            return
        if ended.state in ("approved", "denied"):
            answer = ended.answer or (Answer.APPROVE_ONCE if ended.state == "approved" else Answer.DENY)
            future.set_result((answer, ended.actor or "unknown", ended.note))
        else:  # expired or withdrawn elsewhere (a restart's sweep, an operator): it does not run
            future.set_exception(_Gone(ended))

    async def _settle_end(self, approval: PendingApproval, outcome: Outcome, ended: Ended) -> tuple[Outcome, Ended]:
        """Settle a timeout or a withdrawal in the ledger; an answer that got there first stands."""
        assert self.ledger is not None
        if outcome.withdrawn is not None:
            # An approval given in the instant the caller left ran nothing: the row says withdrawn, as it is.
            settlement = Settlement(Ended("withdrawn", ended.reason, actor="hintgate"), "caller", replace=("approved",))
        else:
            settlement = Settlement(Ended("expired", ended.reason, actor="hintgate"), "timeout")
        try:
            won = await self.ledger.settle(approval.id, settlement)
        except HintgateError as exc:
            logger.warning(
                "could not mark the approval of %s %s in the store: %s", approval.tool, settlement.end.state, exc
            )
            return outcome, ended
        if won is None or won.won or settlement.end.state == "withdrawn" or won.state not in ("approved", "denied"):
            return outcome, ended
        # Answered in the instant before it expired: that answer stands.
        answer = won.answer or (Answer.APPROVE_ONCE if won.state == "approved" else Answer.DENY)
        return Outcome(answer, won.actor or "unknown", outcome.waited_ms), won

    async def _withdraw(self, approval_id: str, reason: str) -> None:
        assert self.ledger is not None
        try:
            # An approval given in the instant the call was cancelled ran nothing: the row says withdrawn.
            await self.ledger.settle(
                approval_id, Settlement(Ended("withdrawn", reason, actor="client"), "caller", replace=("approved",))
            )
        except HintgateError as exc:
            logger.warning("could not mark approval %s withdrawn in the store: %s", approval_id, exc)

    def _in_background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _await_answer(self, approval: PendingApproval, timeout: float) -> Outcome:
        """Wait for the answer, the timeout or the caller leaving, whichever comes first."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        future = approval._future
        assert future is not None
        while not future.done():
            left = deadline - loop.time()
            if left <= 0:
                return Outcome(Answer.DENY, "timeout", self._waited(approval), timed_out=True)
            step = left if approval.caller_alive is None else min(left, _CALLER_CHECK)
            with contextlib.suppress(TimeoutError, _Gone):
                async with asyncio.timeout(step):
                    await asyncio.shield(future)
            if not future.done() and not approval.caller_connected:
                return Outcome(Answer.DENY, "caller", self._waited(approval), withdrawn=_GONE)
        try:
            answer, actor, note = future.result()
        except _Gone as gone:
            if gone.ended.state == "withdrawn":
                return Outcome(
                    Answer.DENY, gone.ended.actor or "caller", self._waited(approval), withdrawn=gone.ended.reason
                )
            return Outcome(Answer.DENY, gone.ended.actor or "timeout", self._waited(approval), timed_out=True)
        if answer is not Answer.DENY and not approval.caller_connected:
            # Approved elsewhere in the instant the caller left: nobody could receive the result.
            return Outcome(Answer.DENY, "caller", self._waited(approval), withdrawn=_GONE)
        return Outcome(answer, actor, self._waited(approval), note=note)

    @staticmethod
    def _waited(approval: PendingApproval) -> float:
        return (time.monotonic() - approval._started) * 1000

    async def respond(
        self,
        approval_id: str,
        answer: Answer,
        *,
        actor: str,
        via: str,
        note: str | None = None,
        who: Principal | None = None,
    ) -> Ended | None:
        """Answer an approval waiting on any replica sharing the ledger (this process's own without one).

        An approval the ledger could not take is answered here, where alone it waits.

        Args:
            approval_id: the approval's id.
            answer: the person's answer.
            actor: who answers.
            via: how: dashboard, api, cli.
            note: what the person says with the answer (a denial's reason), passed on to the caller.
            who: the person answering, when the gateway knows people: they must be among the
                approval's approvers, and not the person who made the call unless allowed.

        Returns:
            `won=True` when this answer settled it; else how it ended (answered,
            expired or withdrawn). None when there is no such approval. An
            approval of this process is answered only once its waiter has taken
            the answer: a call withdrawn in the meantime (its client cancelled
            or left) is answered `withdrawn`, never `approved`.

        Raises:
            NotAnApprover: `who` may not answer this approval.
            HintgateError: the ledger cannot be reached.
        """
        writing = self._writing.get(approval_id)
        if writing is not None:  # listed before the ledger holds it: the answer waits for the write
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(_TAKEN_WAIT):
                    await writing.wait()
        local = self._pending.get(approval_id)
        if who is not None:
            held = local or next((p for p in await self.listing() if p.id == approval_id), None)
            if held is not None:
                refusal = (held.approvers or Approvers()).refusal(who, held.caller_key, held.caller)
                if refusal is not None:
                    raise NotAnApprover(refusal)
        state = "denied" if answer is Answer.DENY else "approved"
        waiting = local is not None and local._future is not None and not local._future.done()
        if waiting and local is not None and not local.caller_connected and answer is not Answer.DENY:
            # Approving for a caller who is gone would run a write nobody waits for.
            return Ended("withdrawn", _GONE)
        gone = self._ended.get(approval_id)
        if local is None and gone is not None and gone.state == "withdrawn":
            # Its wait ended here; the ledger may not have been told yet (that is written in the background).
            return gone
        if self.ledger is None or approval_id in self._unshared:  # none holds it but this process
            if self.answer(approval_id, answer, actor=actor, note=note):
                won = Ended(state, f"{state} by {actor}", won=True, note=note, answer=answer, actor=actor)
                return await self._taken_as(local, won)
            return self.ended(approval_id)
        ended = await self.ledger.settle(approval_id, Settlement.answered(answer, actor, via, note))
        future = local._future if local is not None else None
        if ended is not None and ended.won and future is not None and not future.done():
            future.set_result((answer, actor, note))
        if ended is not None and ended.won:
            return await self._taken_as(local, ended)
        return ended

    @staticmethod
    async def _taken_as(local: PendingApproval | None, won: Ended) -> Ended:
        """What a winning answer amounts to once the local waiter took it: withdrawn if its call was."""
        taken = local._taken if local is not None else None
        if taken is None:
            return won  # held by another replica: it answers for itself
        try:
            async with asyncio.timeout(_TAKEN_WAIT):
                final = await asyncio.shield(taken)
        except TimeoutError:
            return won
        if won.state == "approved" and final.state in ("withdrawn", "expired"):
            return Ended(final.state, final.reason, won=False, actor=final.actor)
        return won

    def answer(self, approval_id: str, answer: Answer, *, actor: str, note: str | None = None) -> bool:
        """Answer a pending approval of this process, without a ledger; False when it is no longer pending."""
        approval = self._pending.get(approval_id)
        if approval is None or approval._future is None or approval._future.done():
            return False
        if not approval.caller_connected:
            # Approving for a caller who is gone would run a write nobody waits for.
            return False
        approval._future.set_result((answer, actor, note))
        return True

    def withdraw_server(self, server: str, reason: str) -> int:
        """Withdraw every approval of this process waiting on a server's tools (it was removed or disabled).

        Each waiting call ends at once with a tool error that gives `reason`,
        and the approval is settled as withdrawn (in the ledger too, when
        shared). Returns how many were withdrawn.
        """
        withdrawn = 0
        for approval in list(self._pending.values()):
            future = approval._future
            if approval.server == server and future is not None and not future.done():
                future.set_exception(_Gone(Ended("withdrawn", reason, actor="hintgate")))
                withdrawn += 1
        return withdrawn

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()


def answered_reason(state: str, actor: str, via: str, note: str | None) -> str:
    """How an answered approval's end is put in words: `denied by alice (cli): too broad`."""
    return f"{state} by {actor} ({via})" + (f": {note}" if note else "")


def note_in(reason: str, state: str, actor: str, via: str) -> str | None:
    """The note `answered_reason` put in `reason`, if any."""
    prefix = answered_reason(state, actor, via, None) + ": "
    return reason[len(prefix) :] if reason.startswith(prefix) else None


class _Gone(Exception):
    """The approval was settled elsewhere as expired or withdrawn."""

    def __init__(self, ended: Ended) -> None:
        super().__init__(ended.reason)
        self.ended = ended


_CANCELLED = "the client cancelled the call or closed its session before it was answered"
_GONE = "the caller is gone (its response stream closed), so nobody could receive the result"
