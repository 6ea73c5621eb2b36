"""The approval queue: calls waiting for a person to say yes or no.

When the policy says ask and the client cannot be asked (no elicitation
support), or the operator wants approvals in the dashboard, the call waits
here. The REST API and the dashboard list what waits and answer it; no answer
within the timeout means deny (fail closed).
"""

from __future__ import annotations

import asyncio
import enum
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["Answer", "ApprovalQueue", "Outcome", "PendingApproval"]


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
    """

    answer: Answer
    actor: str
    waited_ms: float
    timed_out: bool = False

    @property
    def approved(self) -> bool:
        """Whether the call may run."""
        return self.answer is not Answer.DENY


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
        }


class ApprovalQueue:
    """Pending approvals, answered from outside, each bounded by a timeout.

    Args:
        on_change: called after an approval is added or leaves the queue (to update dashboards).
    """

    def __init__(self, *, on_change: Callable[[], None] | None = None) -> None:
        self._pending: dict[str, PendingApproval] = {}
        self._on_change = on_change

    def pending(self) -> list[PendingApproval]:
        """What waits, oldest first."""
        return sorted(self._pending.values(), key=lambda p: p.created_at)

    def get(self, approval_id: str) -> PendingApproval | None:
        """A pending approval by id."""
        return self._pending.get(approval_id)

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
    ) -> Outcome:
        """Queue a call and wait for an answer, at most `timeout` seconds (then deny)."""
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
        )
        self._pending[approval.id] = approval
        self._changed()
        try:
            answer, actor = await asyncio.wait_for(asyncio.shield(future), timeout)
            timed_out = False
        except TimeoutError:
            answer, actor, timed_out = Answer.DENY, "timeout", True
        finally:
            self._pending.pop(approval.id, None)
            self._changed()
        waited = (time.monotonic() - approval._started) * 1000
        return Outcome(answer, actor, waited, timed_out)

    def answer(self, approval_id: str, answer: Answer, *, actor: str) -> bool:
        """Answer a pending approval; False when it is no longer pending."""
        approval = self._pending.get(approval_id)
        if approval is None or approval._future.done():
            return False
        approval._future.set_result((answer, actor))
        return True

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()
