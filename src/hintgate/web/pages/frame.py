"""What every dashboard page shares: the frame (title, nav section, pending count), times, choices, errors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["Choice", "ErrorPage", "Layout", "Moment", "layout", "pretty_json"]


@dataclass(frozen=True, slots=True)
class Layout:
    """What every page's frame needs.

    Attributes:
        title: the page's own title (the `<title>` adds " · hintgate").
        section: the nav entry to mark current (catalog, sessions, calls, approvals, settings).
        pending: approvals waiting, for the count in the nav.
    """

    title: str
    section: str
    pending: int


@dataclass(frozen=True, slots=True)
class Moment:
    """A point in time: machine-readable and as shown."""

    iso: str
    text: str

    @classmethod
    def parse(cls, value: Any) -> Moment | None:
        """From an ISO 8601 string or a datetime; None stays None."""
        if value is None:
            return None
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        zone = moment.strftime(" %Z") if moment.tzinfo is not None else ""
        return cls(moment.isoformat(), moment.strftime("%Y-%m-%d %H:%M:%S") + zone)


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a select or radio group."""

    value: str
    label: str
    selected: bool


def layout(gateway: Gateway, title: str, section: str) -> Layout:
    """The frame of a page: its title, its nav section and the pending approvals count."""
    return Layout(title=title, section=section, pending=len(gateway.calls.approvals))


def pretty_json(value: Any) -> str:
    """JSON for people: indented, non-ASCII kept."""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str)


@dataclass(frozen=True, slots=True)
class ErrorPage:
    """A page saying what went wrong."""

    layout: Layout
    status: int
    message: str
