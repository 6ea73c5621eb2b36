"""A client's session with the gateway, as the pipeline, the observers and the server see it.

The record only: who the client is, since when, what the policy remembers of
it. Finding or opening the session of a request, and ending it when its
client goes, is the server's (`hintgate.server.sessions.SessionTracker`);
the pipeline and the observers read and update the record it hands them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hintgate.policy.decide import SessionState
from hintgate.policy.principal import Principal

__all__ = ["ClientSession"]


@dataclass(slots=True)
class ClientSession:
    """One client's session with the gateway.

    Attributes:
        id: a UUID, the session's key in the store.
        client_name: from the client's `initialize` (or request envelope).
        client_version: likewise.
        transport: "stdio" or "http".
        protocol_version: the protocol revision in use.
        started_at: when it began (UTC).
        ended_at: when it ended, None while active.
        calls: tool calls made so far.
        policy: what the policy remembers of the session (approvals, taint).
        user: who opened it: a person's name from the identity provider, `api-token`, or None
            when the gateway knows no users (stdio, or HTTP without an `identity` section).
        principal: that person with their groups and key, for rules that name people and what they own.
        view: the view it was opened on (`/mcp/NAME`, `serve --view NAME`), None for the whole catalog.
        transport_id: the `Mcp-Session-Id` of a handshake-era HTTP session, once a request has named it
            (how the gateway ends the session on request: `Gateway.end_session`).
        client_key: what a 2026-07-28 question asked in it is bound to: for a connectionless session, a
            digest of what makes it (the person's key, the declared client, the view), the same on every
            replica, so that an answer may come back through another; else the session's id.
    """

    id: str
    client_name: str | None
    client_version: str | None
    transport: str
    protocol_version: str
    started_at: datetime
    ended_at: datetime | None = None
    user: str | None = None
    principal: Principal | None = None
    transport_id: str | None = None
    view: str | None = None
    client_key: str = ""
    calls: int = 0
    last_seen: float = field(default_factory=time.monotonic)
    in_flight: int = 0
    """Requests of this session being served now (a session with one is not idle)."""
    held_until: float = 0.0
    """Not idle before this `time.monotonic()` reading: a question it was asked is still open."""

    def __post_init__(self) -> None:
        if not self.client_key:
            self.client_key = self.id

    def hold(self, seconds: float) -> None:
        """Keep the session from going idle for `seconds` (its client is answering a question)."""
        self.held_until = max(self.held_until, time.monotonic() + seconds)

    policy: SessionState = field(default_factory=SessionState)
    connection: Any = None

    def policy_state(self, *, connectionless: bool) -> SessionState:
        """What the policy may remember for a call in this session.

        A connectionless (2026-07-28) session is requests grouped by the name
        and version the client declares, which any other client can declare
        too: it lends its taint (so calls only ever ask more) but no
        approvals, and what the call approves is forgotten with it.
        """
        if not connectionless:
            return self.policy
        return SessionState(tainted_by=self.policy.tainted_by, taint_reason=self.policy.taint_reason)

    @property
    def active(self) -> bool:
        """True until the session ends."""
        return self.ended_at is None
