"""The approvals page: calls waiting for a person, with their warnings and arguments."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hintgate.policy.asking import title_phrase
from hintgate.web.badges import warning_icon
from hintgate.web.pages.frame import Layout, Moment, layout, pretty_json

if TYPE_CHECKING:
    from hintgate.policy.approvals import PendingApproval
    from hintgate.server.gateway import Gateway

__all__ = ["ApprovalItem", "ApprovalsPage", "approvals_page", "approvals_version"]


@dataclass(frozen=True, slots=True)
class ApprovalItem:
    """A call waiting for a person."""

    id: str
    tool: str
    title: str
    title_phrase: str
    server: str
    arguments_json: str
    reason: str
    warnings: list[tuple[str, str]]
    client: str
    session_id: str | None
    created: Moment | None
    expires: Moment | None
    caller_connected: bool = True
    view: str | None = None
    """The view the calling session was served; None for the whole catalog."""
    does: str | None = None


@dataclass(frozen=True, slots=True)
class ApprovalsPage:
    """What waits for approval; `version` changes exactly when the list does."""

    layout: Layout
    items: list[ApprovalItem]
    version: str


def approvals_version(waiting: list[PendingApproval]) -> str:
    """A short fingerprint of the pending approvals, so a poll can tell nothing changed."""
    ids = ",".join(f"{p.id}:{p.caller_connected}" for p in waiting)
    return hashlib.sha256(ids.encode()).hexdigest()[:16]


def approvals_page(gateway: Gateway, waiting: list[PendingApproval]) -> ApprovalsPage:
    """The approvals page, listing `waiting` (`ApprovalQueue.listing()`: every replica's)."""
    items = [
        ApprovalItem(
            id=p.id,
            tool=p.tool,
            title=p.title,
            title_phrase=title_phrase(p.title, p.title_origin),
            server=p.server,
            arguments_json=pretty_json(dict(p.arguments) if p.arguments is not None else {}),
            reason=p.reason,
            warnings=[(w, warning_icon(w)) for w in p.warnings],
            client=p.client_name or "unknown client",
            session_id=p.session_id,
            created=Moment.parse(p.created_at),
            expires=Moment.parse(p.expires_at),
            caller_connected=p.caller_connected,
            view=p.view,
            does=p.does,
        )
        for p in waiting
    ]
    return ApprovalsPage(layout(gateway, "Approvals", "approvals"), items, approvals_version(waiting))
