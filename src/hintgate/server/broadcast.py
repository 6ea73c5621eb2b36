"""Telling connected clients that a list or a resource changed.

Handshake-era clients hear it on their connections; 2026-07-28 clients, which
have none, through the SDK's subscription bus (`subscriptions/listen`).

A list change is told at once, then at most once per `LIST_CHANGED_INTERVAL`
for that kind: changes in between are told together, once, when the interval
ends (a client re-lists and gets the latest). Servers that change their lists
in a loop sent an idle client 7,298 notifications in 20 s; now at most 20.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from hintgate.server.sessions import SessionTracker

__all__ = ["LIST_CHANGED_INTERVAL", "Broadcast"]

LIST_CHANGED_INTERVAL = 1.0
"""Seconds at least between two `list_changed` of one kind sent to clients."""


class Broadcast:
    """Notifications to every client of a gateway.

    Attributes:
        bus: the SDK's subscription bus, once the MCP server face is built.
    """

    def __init__(self, sessions: SessionTracker) -> None:
        self._sessions = sessions
        self.bus: Any = None
        self._told_at: dict[str, float] = {}  # loop time each kind was last told
        self._later: dict[str, asyncio.TimerHandle] = {}  # kinds whose telling waits for the interval to end
        self._sending: set[asyncio.Task[None]] = set()

    async def lists_changed(self, kinds: Sequence[str]) -> None:
        """`notifications/{tools,prompts,resources}/list_changed` for each kind given, at once or with the next."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        due = []
        for kind in kinds:
            if kind in self._later:
                continue  # already to be told when the interval ends: that covers this change too
            last = self._told_at.get(kind)
            if last is None or now - last >= LIST_CHANGED_INTERVAL:
                self._told_at[kind] = now
                due.append(kind)
            else:
                self._later[kind] = loop.call_later(last + LIST_CHANGED_INTERVAL - now, self._tell_later, kind)
        if due:
            await self._send(due)

    def _tell_later(self, kind: str) -> None:
        self._later.pop(kind, None)
        loop = asyncio.get_running_loop()
        self._told_at[kind] = loop.time()
        task = loop.create_task(self._send((kind,)), name=f"list-changed:{kind}")
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, kinds: Sequence[str]) -> None:
        if self.bus is None and not self._sessions.connections():
            return  # nobody to tell yet: a stdio gateway's first listing is answered before the SDK is imported
        from mcp.server.subscriptions import PromptsListChanged, ResourcesListChanged, ToolsListChanged

        events = {"tools": ToolsListChanged, "prompts": PromptsListChanged, "resources": ResourcesListChanged}
        for kind in kinds:
            if self.bus is not None:
                await self.bus.publish(events[kind]())
            for connection in self._sessions.connections():
                send = getattr(connection, f"send_{kind[:-1] if kind != 'resources' else 'resource'}_list_changed")
                with contextlib.suppress(Exception):  # a client that has gone misses nothing it could use
                    await send()

    async def resource_updated(self, uri: str) -> None:
        """`notifications/resources/updated` for one resource."""
        if self.bus is None and not self._sessions.connections():
            return  # nobody to tell yet (nothing of the SDK imported for nobody)
        from mcp.server.subscriptions import ResourceUpdated

        if self.bus is not None:
            await self.bus.publish(ResourceUpdated(uri=uri))
        for connection in self._sessions.connections():
            with contextlib.suppress(Exception):
                await connection.send_resource_updated(uri)
