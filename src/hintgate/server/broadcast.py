"""Telling connected clients that a list or a resource changed.

Handshake-era clients hear it on their connections; 2026-07-28 clients, which
have none, through the SDK's subscription bus (`subscriptions/listen`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from hintgate.server.sessions import SessionTracker

__all__ = ["Broadcast"]


class Broadcast:
    """Notifications to every client of a gateway.

    Attributes:
        bus: the SDK's subscription bus, once the MCP server face is built.
    """

    def __init__(self, sessions: SessionTracker) -> None:
        self._sessions = sessions
        self.bus: Any = None

    async def lists_changed(self, kinds: Sequence[str]) -> None:
        """`notifications/{tools,prompts,resources}/list_changed` for each kind given."""
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
        from mcp.server.subscriptions import ResourceUpdated

        if self.bus is not None:
            await self.bus.publish(ResourceUpdated(uri=uri))
        for connection in self._sessions.connections():
            with contextlib.suppress(Exception):
                await connection.send_resource_updated(uri)
