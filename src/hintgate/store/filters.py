"""Which recorded calls or sessions a reader wants: from the command line or the web API down to the query."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

__all__ = ["CallFilter", "SessionFilters"]


@dataclass(frozen=True, slots=True)
class CallFilter:
    """Calls matching every field given; a field left `None` does not filter.

    Attributes:
        session_id: the session's whole id; the calls then come in the order they started.
        server: the server's id.
        tool: the tool's name as the gateway lists it.
        tier: the tool's tier when called (`read-only`, `additive`, ...).
        verdict: the policy's decision (`allow`, `deny`, `approved`, `denied`, `expired`, `withdrawn`).
        user: the person who made the call, as recorded (an email, `api-token`).
        user_key: who made it (`Principal.key`): one person's calls, whatever names others have.
        since: calls started at or after it (inclusive): a datetime or an ISO 8601 string, naive is UTC.
        until: calls started before it (exclusive), as `since`.
        owner: only the calls of the person with this key (`user_key`): the calls a reader may see at all,
            applied in the query beside `user`, so another person's calls never leave the store for them.
    """

    session_id: str | None = None
    server: str | None = None
    tool: str | None = None
    tier: str | None = None
    verdict: str | None = None
    user: str | None = None
    user_key: str | None = None
    since: datetime | str | None = None
    until: datetime | str | None = None
    owner: str | None = None


class SessionFilters(TypedDict, total=False):
    """Sessions matching every filter given (`Store.recent_sessions`); one left out or `None` does not filter.

    Attributes:
        status: `active` or `closed`.
        replica: the replica that served them (gateways sharing a database).
        user: the person who opened them, as recorded (an email, `api-token`).
        owner: only the sessions of the person with this key: all a reader may see at all.
        user_key: who opened them (`Principal.key`): one person's sessions, whatever names others have.
    """

    status: str | None
    replica: str | None
    user: str | None
    owner: str | None
    user_key: str | None
