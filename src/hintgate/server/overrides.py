"""Operators' hint, title and confirm overrides and policy settings set through the API, CLI or dashboard.

Kept in the store, so they survive a restart and reach every replica sharing it.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Final

from hintgate.hints.annotations import Hint
from hintgate.policy.rules import Confirm

if TYPE_CHECKING:
    from hintgate.store import Store

__all__ = ["KEEP", "Keep", "StoredOverrides"]


class Keep(enum.Enum):
    """The type of `KEEP`."""

    KEEP = "keep"


KEEP: Final = Keep.KEEP
"""Leave the stored title as it is (a title of None clears it)."""


class StoredOverrides:
    """The overrides by public tool name, and the store's version of them when last read.

    Args:
        store: where they are kept; None keeps them in memory only.

    Attributes:
        by_tool: public tool name → hint → value.
        titles: public tool name → title.
        confirms: public tool name or glob → how often it asks (`confirm_rule` makes the rule).
        policy: policy setting key path → its stored row (`value`, `updated_at`, `updated_by`),
            laid over the config file's settings (`hintgate.policy.settings.layer_settings`).
        people: a person's key (`hintgate.policy.preferences.owner_key`) → their own preferences (key path →
            value), laid over the policy for their calls where they ask more (`hintgate.policy.preferences`).
    """

    def __init__(self, store: Store | None) -> None:
        self._store = store
        self.by_tool: dict[str, dict[Hint, bool]] = {}
        self.titles: dict[str, str] = {}
        self.confirms: dict[str, Confirm] = {}
        self.policy: dict[str, dict[str, Any]] = {}
        self.people: dict[str, dict[str, Any]] = {}
        self._version = 0
        self._turn = asyncio.Lock()
        """Held by each re-read of the store and each change made here, one after the other: a re-read that
        overlapped a change would put back what it read before the change (and the change's version with it)."""

    def hints_of(self, tool: str) -> Mapping[Hint, bool]:
        """The hints stored for `tool` (public name), each with its value; empty when none is."""
        return self.by_tool.get(tool, {})

    def title_of(self, tool: str) -> str | None:
        """The title stored for `tool` (public name), None when none is."""
        return self.titles.get(tool)

    def confirm_of(self, tool: str) -> Confirm | None:
        """How often `tool` (a public name or glob) asks, as stored; None when nothing is."""
        return self.confirms.get(tool)

    def confirmed(self) -> list[str]:
        """The tools (public names or globs) with a stored confirm, sorted."""
        return sorted(self.confirms)

    async def load(self) -> None:
        """Read every override from the store."""
        async with self._turn:
            await self._load()

    async def _load(self) -> None:
        if self._store is None:
            return
        parts = self._store.overrides
        # The version first: a change landing among the reads makes it older than the rows, read again next time.
        version = await parts.version()
        self.load_rows(
            hints=await parts.hints(),
            titles=await parts.titles(),
            confirms=await parts.confirms(),
            policy=await parts.policy_settings(),
            people=await parts.person_preferences(),
            version=version,
        )

    def load_rows(
        self,
        *,
        hints: Iterable[Mapping[str, Any]],
        titles: Iterable[Mapping[str, Any]],
        confirms: Iterable[Mapping[str, Any]],
        policy: Iterable[dict[str, Any]],
        version: int,
        people: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        """Take the overrides from the store's rows (read by the store, or ahead of it: `hintgate.stored_state`)."""
        stored: dict[str, dict[Hint, bool]] = {}
        for row in hints:
            stored.setdefault(row["tool"], {})[Hint(row["hint"])] = bool(row["value"])
        self.by_tool = stored
        self.titles = {row["tool"]: row["title"] for row in titles}
        self.confirms = {row["tool"]: Confirm(row["confirm"]) for row in confirms}
        self.policy = {row["setting"]: row for row in policy}
        kept: dict[str, dict[str, Any]] = {}
        for row in people:
            kept.setdefault(row["person"], {})[row["setting"]] = row["value"]
        self.people = kept
        self._version = version

    def attach(self, store: Store) -> None:
        """Keep the overrides in `store` from now on (they were read ahead of it, as of `load_rows`' version)."""
        self._store = store

    async def changed_elsewhere(self) -> bool:
        """Whether another replica wrote overrides since the last read (one counter read); reloads them if so."""
        async with self._turn:
            if self._store is None or await self._store.overrides.version() == self._version:
                return False
            await self._load()
            return True

    async def apply(
        self, tool: str, changes: Mapping[Hint, bool | None], *, actor: str, title: str | Keep | None = KEEP
    ) -> None:
        """Set (true / false) or clear (None) overrides of a tool: in the store first, then here.

        Args:
            tool: the public tool name.
            changes: per hint, the new value, or None to clear it.
            actor: who made the change, kept beside it.
            title: a new title, None to clear the stored one, `KEEP` to leave it.
        """
        async with self._turn:
            if self._store is not None:
                if isinstance(title, str):
                    await self._store.overrides.set_title(tool, title, actor=actor)
                elif title is None:
                    await self._store.overrides.clear_title(tool)
                for hint, value in changes.items():
                    if value is None:
                        await self._store.overrides.clear_hint(tool, hint.value)
                    else:
                        await self._store.overrides.set_hint(tool, hint.value, value, actor=actor)
                self._version = await self._store.overrides.version()
            if isinstance(title, str):
                self.titles[tool] = title
            elif title is None:
                self.titles.pop(tool, None)
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

    async def apply_confirm(self, tool: str, confirm: Confirm | None, *, actor: str) -> None:
        """Set (or clear, None) how often a tool name or glob asks: in the store first, then here."""
        async with self._turn:
            if self._store is not None:
                if confirm is None:
                    await self._store.overrides.clear_confirm(tool)
                else:
                    await self._store.overrides.set_confirm(tool, confirm.value, actor=actor)
                self._version = await self._store.overrides.version()
            if confirm is None:
                self.confirms.pop(tool, None)
            else:
                self.confirms[tool] = confirm

    async def apply_policy(self, values: Mapping[str, Any], cleared: Sequence[str], *, actor: str) -> None:
        """Store policy settings (key path → value) and drop the stored ones in `cleared`: in the store, then here."""
        async with self._turn:
            if self._store is not None:
                if cleared:
                    await self._store.overrides.clear_policy_settings(list(cleared))
                if values:
                    await self._store.overrides.set_policy_settings(values, actor=actor)
                self.policy = {row["setting"]: row for row in await self._store.overrides.policy_settings()}
                self._version = await self._store.overrides.version()
                return
            for path in cleared:
                self.policy.pop(path, None)
            now = datetime.now(UTC)
            for path, value in values.items():
                self.policy[path] = {"setting": path, "value": value, "updated_at": now, "updated_by": actor}

    async def apply_person(self, person: str, values: Mapping[str, Any], cleared: Sequence[str]) -> None:
        """Keep a person's own preferences (key path → value) and drop those in `cleared`: in the store, then here."""
        async with self._turn:
            if self._store is not None:
                await self._store.overrides.set_person_preferences(person, values, cleared)
                self._version = await self._store.overrides.version()
            mine = {k: v for k, v in self.people.get(person, {}).items() if k not in cleared}
            mine.update(values)
            if mine:
                self.people[person] = mine
            else:
                self.people.pop(person, None)
