"""The approval queue: calls waiting for a person to say yes or no.

When the policy says ask and the client cannot be asked (no elicitation
support), or the operator wants approvals in the dashboard, the call waits
here. The REST API and the dashboard list what waits and answer it; no answer
within the timeout means deny (fail closed).

A call waits only while someone waits for its result: when the client
cancels, closes its session or loses its response stream, the approval is
withdrawn and the call never runs. An approval that left the queue is
remembered for a while (bounded), so answering it late says why it is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["Answer", "ApprovalQueue", "Ended", "Outcome", "PendingApproval"]

_REMEMBERED = 500  # approvals that left the queue kept to explain a late answer
_CALLER_CHECK = 0.25  # seconds between checks that the caller still waits for the result


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
    """

    answer: Answer
    actor: str
    waited_ms: float
    timed_out: bool = False
    withdrawn: str | None = None

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
    """

    state: str
    reason: str


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
    _future: asyncio.Future[tuple[Answer, str]] = field(repr=False)
    _started: float = field(default_factory=time.monotonic, repr=False)
    title_origin: str = "declared"
    """Who gave the title (`hintgate.hints.titles.TitleOrigin`): a server's title is only its claim."""
    caller_alive: Callable[[], bool] | None = field(default=None, repr=False)
    """Whether the result can still reach the caller (None: always, as far as hintgate can tell)."""

    @property
    def caller_connected(self) -> bool:
        """Whether the caller still waits for the result."""
        if self.caller_alive is None:
            return True
        try:
            return self.caller_alive()
        except Exception:  # a probe that cannot tell must not withdraw a call
            return True

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict for the REST API and the dashboard."""
        return {
            "id": self.id,
            "tool": self.tool,
            "title": self.title,
            "title_origin": self.title_origin,
            "server": self.server,
            "arguments": self.arguments,
            "reason": self.reason,
            "warnings": self.warnings,
            "session_id": self.session_id,
            "client_name": self.client_name,
            "created_at": self.created_at.isoformat(),
            "expires_at": self.expires_at.isoformat(),
            "caller_connected": self.caller_connected,
        }


class ApprovalQueue:
    """Pending approvals, answered from outside, each bounded by a timeout.

    Args:
        on_change: called after an approval is added or leaves the queue (to update dashboards).
    """

    def __init__(self, *, on_change: Callable[[], None] | None = None) -> None:
        self._pending: dict[str, PendingApproval] = {}
        self._ended: OrderedDict[str, Ended] = OrderedDict()
        self._on_change = on_change

    def pending(self) -> list[PendingApproval]:
        """What waits, oldest first."""
        return sorted(self._pending.values(), key=lambda p: p.created_at)

    def get(self, approval_id: str) -> PendingApproval | None:
        """A pending approval by id."""
        return self._pending.get(approval_id)

    def ended(self, approval_id: str) -> Ended | None:
        """How a recent approval left the queue, or is leaving it (None when unknown or still answerable)."""
        approval = self._pending.get(approval_id)
        if approval is not None and not approval._future.done() and not approval.caller_connected:
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
    ) -> Outcome:
        """Queue a call and wait for an answer, at most `timeout` seconds (then deny).

        `caller_alive` tells whether the result can still reach the caller; once
        it says no, the approval is withdrawn. Cancelling the wait (the client
        cancelled, or closed its session) withdraws it too.
        """
        now = datetime.now(UTC)
        future: asyncio.Future[tuple[Answer, str]] = asyncio.get_running_loop().create_future()
        approval = PendingApproval(
            id=str(uuid.uuid4()),
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
        )
        self._pending[approval.id] = approval
        self._changed()
        ended = Ended("withdrawn", "the client cancelled the call or closed its session before it was answered")
        try:
            outcome = await self._await_answer(approval, timeout)
            if outcome.withdrawn is not None:
                ended = Ended("withdrawn", outcome.withdrawn)
            elif outcome.timed_out:
                ended = Ended("expired", f"nobody answered within {timeout:g} s")
            else:
                verb = "approved" if outcome.approved else "denied"
                ended = Ended(verb, f"{verb} by {outcome.actor}")
            return outcome
        finally:
            self._pending.pop(approval.id, None)
            self._ended[approval.id] = ended
            while len(self._ended) > _REMEMBERED:
                self._ended.popitem(last=False)
            self._changed()

    async def _await_answer(self, approval: PendingApproval, timeout: float) -> Outcome:
        """Wait for the answer, the timeout or the caller leaving, whichever comes first."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        future = approval._future
        while not future.done():
            left = deadline - loop.time()
            if left <= 0:
                return Outcome(Answer.DENY, "timeout", self._waited(approval), timed_out=True)
            step = left if approval.caller_alive is None else min(left, _CALLER_CHECK)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(future), step)
            if not future.done() and not approval.caller_connected:
                return Outcome(Answer.DENY, "caller", self._waited(approval), withdrawn=_GONE)
        answer, actor = future.result()
        return Outcome(answer, actor, self._waited(approval))

    @staticmethod
    def _waited(approval: PendingApproval) -> float:
        return (time.monotonic() - approval._started) * 1000

    def answer(self, approval_id: str, answer: Answer, *, actor: str) -> bool:
        """Answer a pending approval; False when it is no longer pending."""
        approval = self._pending.get(approval_id)
        if approval is None or approval._future.done():
            return False
        if not approval.caller_connected:
            # Approving for a caller who is gone would run a write nobody waits for.
            return False
        approval._future.set_result((answer, actor))
        return True

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()


_GONE = "the caller is gone (its response stream closed), so nobody could receive the result"
