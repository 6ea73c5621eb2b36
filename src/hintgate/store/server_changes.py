"""The store's runtime server changes: one per server name, laid over the config file.

A change's `mcpServers` entry holds literal secrets as often as not (a stdio
child's `env`, a remote server's `headers`, credentials in its URL). Once the
store is given a key (`ServerChanges.seal`, which a gateway does at start) each
entry is kept sealed (`hintgate.sealing`, the key OAuth credentials are
sealed with, the server's name bound in) as `{"hintgate/sealed": "..."}`, and
opened again when read; entries written in clear before are sealed then.
"""

from __future__ import annotations

import base64
import logging
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import URL, delete, select, update

from hintgate.errors import StoreError
from hintgate.sealing import SEALED_ENTRY, Sealer, server_entries
from hintgate.store.async_core import AsyncEngine
from hintgate.store.part import StorePart
from hintgate.store.tables import server_changes, upsert

__all__ = ["SEALED", "SERVER_ACTIONS", "ServerChanges"]

logger = logging.getLogger(__name__)

SEALED = SEALED_ENTRY
"""The one key of a stored entry that is sealed: its value is the sealed entry, base64."""

SERVER_ACTIONS = ("add", "edit", "remove", "enable", "disable")
"""What a stored change does to its server (`hintgate.config.layering.ACTIONS`)."""


class ServerChanges(StorePart):
    """The runtime server changes kept in a database: `Store.server_changes`.

    Made with the store's engine and URL (`StorePart`).
    """

    def __init__(self, engine: AsyncEngine, url: URL) -> None:
        super().__init__(engine, url)
        self._entries: Sealer | None = None

    async def seal(self, key: str) -> int:
        """Keep every server change's entry sealed under `key` from now on; seals those kept in clear.

        Returns:
            How many entries kept in clear were sealed now.

        Raises:
            StoreError: the database cannot be read or written.
        """
        self._entries = server_entries(key)
        query = select(server_changes.c.name, server_changes.c.config).where(server_changes.c.config.is_not(None))
        sealed = 0
        async with self.writing("seal the server changes in") as conn:
            for name, config in list(await conn.execute(query)):
                if not _is_sealed(config):
                    stored = self._stored_entry(name, config)
                    await conn.execute(
                        update(server_changes).where(server_changes.c.name == name).values(config=stored)
                    )
                    sealed += 1
        if sealed:
            logger.warning(
                "sealed the entries of %d server changes the store kept in clear; their old bytes may stay in the "
                "database's free space until it is vacuumed",
                sealed,
            )
        return sealed

    def _stored_entry(self, name: str, config: Mapping[str, Any] | None) -> dict[str, Any] | None:
        if config is None or self._entries is None:
            return dict(config) if config is not None else None
        return {SEALED: base64.b64encode(self._entries.seal(name, dict(config))).decode("ascii")}

    def _read_entry(self, name: str, config: Any) -> Any:
        if not _is_sealed(config):
            return config
        if self._entries is None:
            raise StoreError(
                f"the server entry kept for {name!r} is sealed, and this process was given no key to open it"
            )
        return self._entries.open(name, base64.b64decode(config[SEALED]))

    async def all(self) -> list[dict[str, Any]]:
        """Every stored change: `{"name", "action", "config", "changed_at", "changed_by"}`, oldest first.

        A change whose sealed entry cannot be opened (another key) is left out, with an error in the log.

        Raises:
            StoreError: the database cannot be read.
        """
        query = select(server_changes).order_by(server_changes.c.changed_at, server_changes.c.name)
        async with self.reading("read server changes from") as conn:
            rows = [dict(row._mapping) for row in await conn.execute(query)]
        readable = []
        for row in rows:
            try:
                row["config"] = self._read_entry(row["name"], row["config"])
            except StoreError as exc:  # one unreadable entry must not stop the others, nor the gateway
                logger.error("server change of %r left out: %s", row["name"], exc)
                continue
            readable.append(row)
        return readable

    async def set(self, name: str, action: str, config: Mapping[str, Any] | None, *, actor: str = "operator") -> None:
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
            "config": self._stored_entry(name, config),
            "changed_at": datetime.now(UTC),
            "changed_by": actor,
        }
        async with self.writing("write a server change to") as conn:
            stmt = upsert(server_changes, conn.dialect.name).values(**values)
            stmt = stmt.on_conflict_do_update(
                index_elements=[server_changes.c.name],
                set_={k: stmt.excluded[k] for k in ("action", "config", "changed_at", "changed_by")},
            )
            await conn.execute(stmt)

    async def clear(self, name: str) -> int:
        """Drop a server's change (the config file's entry applies again); returns how many went (0 or 1)."""
        async with self.writing("remove a server change from") as conn:
            return int((await conn.execute(delete(server_changes).where(server_changes.c.name == name))).rowcount)


def _is_sealed(config: Any) -> bool:
    return isinstance(config, dict) and set(config) == {SEALED} and isinstance(config[SEALED], str)
