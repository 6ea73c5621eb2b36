"""The REST API's approvals: list every pending approval, approve or deny one.

With a store, the queue is the store's `approvals` table, shared by every
replica: any replica lists and answers every pending approval, and the
replica holding the waiting call learns the answer at once. Answering is one
atomic update: of two racing answers exactly one wins; the other gets 409
naming the state that won.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from hintgate.errors import HintgateError, NotAnApprover
from hintgate.policy.approvals import Answer, PendingApproval
from hintgate.policy.principal import Approvers, principal_of
from hintgate.policy.roles import Permission, answer_refusal, names_anyone
from hintgate.web.api import ApprovalsDep, Problem, channel_of
from hintgate.web.api import router as api_router
from hintgate.web.permissions import Access, AccessDep, refuse

__all__ = ["Approval", "ApprovalAnswer", "ApprovalResult", "router", "visible_to"]

router = APIRouter(prefix="/api", responses=dict(api_router.responses))


class Approval(BaseModel):
    """A call waiting for a person: what the API shows of a `PendingApproval`, read from its attributes."""

    model_config = ConfigDict(populate_by_name=True, from_attributes=True)

    id: str
    tool: str
    title: str
    title_origin: str = Field("declared", description="Who gave the title: override, declared, openapi, derived.")
    server: str
    arguments: dict[str, Any] | None
    reason: str
    does: str | None = Field(
        None, description='What the call does, judged from its arguments ("DROP TABLE users; destructive").'
    )
    warnings: list[str]
    session_id: str | None
    client_name: str | None
    created_at: datetime
    expires_at: datetime
    caller_connected: bool = Field(
        True, description="Whether the caller still waits for the result; a call whose caller left is withdrawn."
    )
    replica: str | None = Field(
        None, description="The gateway instance whose call waits (with a store shared by replicas)."
    )
    caller: str | None = Field(None, description="The person whose call waits (with an identity provider).")
    approvers: str | None = Field(None, description="Who may answer it, when a rule names approvers.")
    view: str | None = Field(None, description="The view the calling session was served (/mcp/NAME); null: all.")

    @field_validator("approvers", mode="before")
    @classmethod
    def _described(cls, approvers: object) -> object:
        return approvers.describe() if isinstance(approvers, Approvers) else approvers


class ApprovalAnswer(BaseModel):
    """An answer to a waiting call."""

    model_config = ConfigDict(extra="forbid")

    answer: Literal["approve-once", "approve-session", "deny"]
    reason: str | None = Field(
        None, max_length=1000, description="Why, in words; a denial's reason reaches the caller."
    )


class ApprovalResult(BaseModel):
    """The answer that settled a waiting call."""

    id: str
    answer: str


def visible_to(access: Access, waiting: list[PendingApproval]) -> list[PendingApproval]:
    """The approvals a caller may see: all of them with `settings:read`; else those they may answer, and
    their own calls that wait (another person's arguments stay with those who may answer them)."""
    if access.may(Permission.READ_SETTINGS):
        return waiting
    if access.principal is None or access.role is None:
        return []
    me = access.principal.key
    return [
        p
        for p in waiting
        if (p.caller_key is not None and p.caller_key == me)
        or answer_refusal(access.role, access.principal, p.approvers, p.caller_key, p.caller) is None
    ]


@router.get(
    "/approvals",
    response_model=list[Approval],
    responses={503: {"model": Problem, "description": "The store holding the approvals cannot be read."}},
)
async def approvals(queue: ApprovalsDep, access: AccessDep) -> list[Approval]:
    """Calls waiting for a person on every replica sharing the store, oldest first; a member sees those they may
    answer and their own."""
    try:
        waiting = await queue.listing()
    except HintgateError as exc:
        raise HTTPException(503, str(exc)) from None
    return [Approval.model_validate(p) for p in visible_to(access, waiting)]


@router.post(
    "/approvals/{approval_id}",
    response_model=ApprovalResult,
    responses={
        403: {"model": Problem, "description": "The signed-in person may not answer it (approvers, own call)."},
        409: {"model": Problem, "description": "The approval was already answered, expired or withdrawn."},
        503: {"model": Problem, "description": "The store holding the approvals cannot be reached."},
    },
)
async def answer(
    request: Request, queue: ApprovalsDep, access: AccessDep, approval_id: str, body: ApprovalAnswer
) -> ApprovalResult:
    """Approve once, approve for the session, or deny a waiting call (on any replica sharing the store).

    A member answers only calls whose approvers name them; a call that names no approvers is an admin's.
    """
    via = channel_of(request)
    # With people known, the answer is the signed-in person's, and only theirs to give if they may.
    who = principal_of(request.scope)
    if not access.may(Permission.OPERATE):
        try:
            waiting = queue.get(approval_id) or next((p for p in await queue.listing() if p.id == approval_id), None)
        except HintgateError as exc:
            raise HTTPException(503, str(exc)) from None
        if waiting is not None and not names_anyone(waiting.approvers):
            raise refuse(access, Permission.OPERATE, "answering a call whose approvers name nobody")
    actor = who.name if who is not None else via
    try:
        ended = await queue.respond(
            approval_id, Answer(body.answer), actor=actor, via=via, note=body.reason or None, who=who
        )
    except NotAnApprover as exc:
        raise HTTPException(403, str(exc)) from None
    except HintgateError as exc:
        raise HTTPException(503, str(exc)) from None
    if ended is None:
        raise HTTPException(404, f"no pending approval {approval_id!r} (answered, timed out, or never existed)")
    if not ended.won:
        raise HTTPException(409, f"approval {approval_id!r} is {ended.state}: {ended.reason}")
    return ApprovalResult(id=approval_id, answer=body.answer)
