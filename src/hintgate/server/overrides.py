"""Operators' hint overrides set through the API or dashboard: kept in the store, shared by replicas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hintgate.hints.annotations import Hint

if TYPE_CHECKING:
    from hintgate.store import Store

__all__ = ["StoredOverrides"]


class StoredOverrides:
    """The overrides by public tool name, and the store's version of them when last read.

    Args:
        store: where they are kept; None keeps them in memory only.

    Attributes:
        by_tool: public tool name → hint → value.
    """

    def __init__(self, store: Store | None) -> None:
        self._store = store
        self.by_tool: dict[str, dict[Hint, bool]] = {}
        self._version = 0

    async def load(self) -> None:
        """Read every override from the store."""
        if self._store is None:
            return
        stored: dict[str, dict[Hint, bool]] = {}
        for row in await self._store.overrides():
            stored.setdefault(row["tool"], {})[Hint(row["hint"])] = bool(row["value"])
        self.by_tool = stored
        self._version = await self._store.overrides_version()

    async def changed_elsewhere(self) -> bool:
        """Whether another replica wrote overrides since the last read (one counter read); reloads them if so."""
        if self._store is None or await self._store.overrides_version() == self._version:
            return False
        await self.load()
        return True

    async def apply(self, tool: str, changes: Mapping[Hint, bool | None], *, actor: str) -> None:
        """Set (true / false) or clear (None) overrides of a tool: in the store first, then here."""
        if self._store is not None:
            for hint, value in changes.items():
                if value is None:
                    await self._store.clear_override(tool, hint.value)
                else:
                    await self._store.set_override(tool, hint.value, value, actor=actor)
            self._version = await self._store.overrides_version()
        current = dict(self.by_tool.get(tool, {}))
        for hint, value in changes.items():
            if value is None:
                current.pop(hint, None)
            else:
                current[hint] = value
        if current:
            self.by_tool[tool] = current
        else:
            self.by_tool.pop(tool, None)
