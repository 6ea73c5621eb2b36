"""The store's runtime server changes: one per server name, laid over the config file."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import URL, delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from hintgate.errors import StoreError
from hintgate.store import queries
from hintgate.store.engine import _translated
from hintgate.store.tables import server_changes, upsert

__all__ = ["SERVER_ACTIONS", "ServerChangesStore"]

SERVER_ACTIONS = ("add", "edit", "remove", "enable", "disable")
"""What a stored change does to its server (`hintgate.config.layering.ACTIONS`)."""


class ServerChangesStore:
    """The server-change methods of `hintgate.store.Store` (which sets `_engine` and `_url`)."""

    _engine: AsyncEngine
    _url: URL

    async def server_changes(self) -> list[dict[str, Any]]:
        """Every stored change: `{"name", "action", "config", "changed_at", "changed_by"}`, oldest first."""
        query = select(server_changes).order_by(server_changes.c.changed_at, server_changes.c.name)
        with _translated(self._url, "read server changes from"):
            async with self._engine.connect() as conn:
                return [dict(row._mapping) for row in await conn.execute(query)]

    async def set_server_change(
        self, name: str, action: str, config: Mapping[str, Any] | None, *, actor: str = "operator"
    ) -> None:
        """Store a server's change, replacing the one it had; committed on return.

        Raises:
            StoreError: an empty name, an unknown action, or a database failure.
        """
        if not name:
            raise StoreError("a server change needs a server name")
        if action not in SERVER_ACTIONS:
            raise StoreError(f"unknown server change {action!r}: one of {', '.join(SERVER_ACTIONS)}")
        values = {
            "name": name,
            "action": action,
            "config": dict(config) if config is not None else None,
            "changed_at": datetime.now(UTC),
            "changed_by": actor,
        }
        with _translated(self._url, "write a server change to"):
            async with queries.begin_write(self._engine) as conn:
                stmt = upsert(server_changes, conn.dialect.name).values(**values)
                stmt = stmt.on_conflict_do_update(
                    index_elements=[server_changes.c.name],
                    set_={k: stmt.excluded[k] for k in ("action", "config", "changed_at", "changed_by")},
                )
                await conn.execute(stmt)

    async def clear_server_change(self, name: str) -> int:
        """Drop a server's change (the config file's entry applies again); returns how many went (0 or 1)."""
        with _translated(self._url, "remove a server change from"):
            async with queries.begin_write(self._engine) as conn:
                return int((await conn.execute(delete(server_changes).where(server_changes.c.name == name))).rowcount)
