"""Connections before any check: a deadline for a request's head, and caps per gateway and per peer.

A connection that never finishes its request head costs a file descriptor and
stays open for as long as the client likes: about a thousand of them used to
stop the gateway accepting anyone (the usual limit is 1,024 descriptors), before
authentication could refuse them. `guarded_protocol` makes uvicorn's HTTP
protocol (httptools) that

- closes a connection whose request head (request line and headers) has not
  arrived within `head_timeout` seconds of the connection opening or of the
  previous answer (a slow sender gets no more time by sending a byte at a time);
- closes a connection whose request body has not all arrived within
  `body_timeout` seconds of its head (MCP and REST bodies are small: a body
  still trickling after that holds a descriptor for nothing);
- answers 503 and closes at once when the gateway already holds
  `max_connections` connections, or the peer address `max_per_peer`, with one
  log line each time it becomes full.

`raise_open_files_limit` raises the process's soft descriptor limit to its hard
limit at start, so the caps, not the descriptor table, decide who is served.
"""

from __future__ import annotations

import asyncio
import json
import logging
import resource
from collections import Counter

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["ConnectionLimits", "guarded_protocol", "raise_open_files_limit"]

logger = logging.getLogger("hintgate")

_FULL = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)


def raise_open_files_limit() -> tuple[int, int]:
    """Raise the soft RLIMIT_NOFILE to the hard limit; returns (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft, soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):
        return soft, soft
    return soft, wanted


class ConnectionLimits:
    """The caps and the head deadline, and the live counts they are checked against.

    Args:
        max_connections: connections the gateway holds at once; more are answered 503.
        max_per_peer: connections one peer address holds at once; more are answered 503.
        head_timeout: seconds a request's head may take to arrive.
        body_timeout: seconds a request's body may take to arrive after its head.
    """

    def __init__(
        self,
        max_connections: int = 1000,
        max_per_peer: int = 200,
        head_timeout: float = 10.0,
        body_timeout: float = 30.0,
    ) -> None:
        self.max_connections = max_connections
        self.max_per_peer = max_per_peer
        self.head_timeout = head_timeout
        self.body_timeout = body_timeout
        self.open = 0
        self.by_peer: Counter[str] = Counter()
        self.refused = 0
        self.timed_out = 0
        self._full_said: set[str] = set()

    def admit(self, peer: str) -> str | None:
        """Count a new connection from `peer`; None when admitted, else why it is refused."""
        if self.open >= self.max_connections:
            return self._full("gateway", f"the gateway holds {self.open} connections (its limit)")
        if self.by_peer[peer] >= self.max_per_peer:
            return self._full(peer, f"{peer} holds {self.by_peer[peer]} connections (the limit per address)")
        self._full_said.discard("gateway")
        self._full_said.discard(peer)
        self.open += 1
        self.by_peer[peer] += 1
        return None

    def release(self, peer: str) -> None:
        """A connection admitted from `peer` closed."""
        self.open -= 1
        self.by_peer[peer] -= 1
        if self.by_peer[peer] <= 0:
            del self.by_peer[peer]

    def _full(self, key: str, why: str) -> str:
        self.refused += 1
        if key not in self._full_said:  # one line each time it becomes full, not one per refused connection
            self._full_said.add(key)
            logger.warning("refusing new connections with 503: %s", why)
        return why


def guarded_protocol(limits: ConnectionLimits) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with `limits` applied to every connection."""

    class Guarded(HttpToolsProtocol):
        _peer: str | None = None
        _timer: asyncio.TimerHandle | None = None
        _due: float | None = None  # when the deadline armed falls (loop time); None: none is armed
        _body_pending = False  # the deadline armed is the body's (set at the head's end, met at the message's)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else "unknown"
            why = limits.admit(peer)
            if why is not None:
                body = json.dumps({"detail": f"busy: {why}; try again later"}).encode()
                transport.write(_FULL % (len(body), body))
                transport.close()
                return
            self._peer = peer
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if self._peer is not None:
                limits.release(self._peer)
                self._peer = None
            super().connection_lost(exc)

        def on_headers_complete(self) -> None:
            self._arm(limits.body_timeout, body=True)
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            if self._body_pending:
                self._disarm()
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's head gets the same deadline

        def _arm(self, seconds: float | None = None, *, body: bool = False) -> None:
            """Set the deadline. A timer set for a later time is left to fire and find it moved (it sets itself
            again): one timer per connection, not one per request head and body."""
            self._body_pending = body
            due = self.loop.time() + (limits.head_timeout if seconds is None else seconds)
            self._due = due
            timer = self._timer
            if timer is None or timer.when() > due:
                if timer is not None:
                    timer.cancel()
                self._timer = self.loop.call_at(due, self._late, due)

        def _disarm(self) -> None:
            self._body_pending = False
            self._due = None  # a timer still set finds nothing due

        def _late(self, when: float) -> None:
            self._timer = None
            due = self._due
            if due is None:
                return
            if due > when:  # the deadline moved on since this timer was set
                self._timer = self.loop.call_at(due, self._late, due)
                return
            self._disarm()
            limits.timed_out += 1
            self.transport.close()

    return Guarded
