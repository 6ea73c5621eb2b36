"""The store's operator overrides: hint values, titles and confirms by public tool name, policy settings laid
over the config file, and their version counter."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from hintgate.errors import StoreError
from hintgate.hints.annotations import Hint
from hintgate.hints.titles import title_problem
from hintgate.policy.settings import POLICY_SETTINGS
from hintgate.store import queries
from hintgate.store.part import StorePart

__all__ = ["CONFIRM_VALUES", "Overrides"]

CONFIRM_VALUES = ("first", "always", "never")
"""The values of a stored confirm setting (`hintgate.policy.rules.Confirm`)."""


class Overrides(StorePart):
    """The operators' overrides kept in a database: `Store.overrides`.

    Every method commits (or reads) on its own connection; every replica on the
    same database sees a change once it is returned (`version` tells them).


    Made with the store's engine and URL (`StorePart`).
    """

    async def hints(self) -> list[dict[str, Any]]:
        """Every stored override: `{"tool", "hint", "value", "updated_at", "updated_by"}`, by tool and hint."""
        async with self.reading("read overrides from") as conn:
            return await queries.overrides(conn)

    async def set_hint(self, tool: str, hint: str, value: bool, *, actor: str = "operator") -> None:
        """Set one hint of one tool, replacing any stored value; committed on return.

        Args:
            tool: the tool's name as the gateway lists it.
            hint: a hint's wire name: readOnlyHint, destructiveHint, idempotentHint or openWorldHint.
            value: the hint's value.
            actor: who set it, kept beside it.

        Raises:
            StoreError: an empty tool name, an unknown hint, a value that is not a bool, or a database failure.
        """
        if not tool:
            raise StoreError("an override needs a tool name")
        _check_hint(hint)
        if not isinstance(value, bool):
            raise StoreError(f"a hint is true or false, got {value!r}")
        async with self.writing("write an override to") as conn:
            await queries.set_override(conn, tool, hint, value, actor=actor, now=datetime.now(UTC))

    async def clear_hint(self, tool: str, hint: str | None = None) -> int:
        """Remove one stored override of `tool`, or all of them when `hint` is `None`; returns how many went."""
        if hint is not None:
            _check_hint(hint)
        async with self.writing("remove an override from") as conn:
            return await queries.clear_override(conn, tool, hint)

    async def titles(self) -> list[dict[str, Any]]:
        """Every stored title override: `{"tool", "title", "updated_at", "updated_by"}`, by tool."""
        async with self.reading("read title overrides from") as conn:
            return await queries.stored_titles(conn)

    async def set_title(self, tool: str, title: str, *, actor: str = "operator") -> None:
        """Set the title of one tool, replacing any stored one; committed on return.

        Raises:
            StoreError: an empty tool name, a title `title_problem` refuses, or a database failure.
        """
        problem = "an override needs a tool name" if not tool else title_problem(title)
        if problem:
            raise StoreError(f"title of {tool!r}: {problem}")
        async with self.writing("write a title override to") as conn:
            await queries.set_title_override(conn, tool, title, actor=actor, now=datetime.now(UTC))

    async def clear_title(self, tool: str) -> int:
        """Remove the stored title of `tool`; returns how many went (0 or 1)."""
        async with self.writing("remove a title override from") as conn:
            return await queries.clear_title_override(conn, tool)

    async def confirms(self) -> list[dict[str, Any]]:
        """Every stored confirm setting: `{"tool", "confirm", "updated_at", "updated_by"}`, by tool name or glob."""
        async with self.reading("read confirm settings from") as conn:
            return await queries.stored_confirms(conn)

    async def set_confirm(self, tool: str, confirm: str, *, actor: str = "operator") -> None:
        """Set how often a tool (a public name or a glob over them) asks: first, always or never.

        Raises:
            StoreError: an empty tool name, another confirm value, or a database failure.
        """
        if not tool:
            raise StoreError("a confirm setting needs a tool name or glob")
        if confirm not in CONFIRM_VALUES:
            raise StoreError(f"confirm of {tool!r}: {confirm!r} is not one of {', '.join(CONFIRM_VALUES)}")
        async with self.writing("write a confirm setting to") as conn:
            await queries.set_confirm(conn, tool, confirm, actor=actor, now=datetime.now(UTC))

    async def clear_confirm(self, tool: str) -> int:
        """Remove the stored confirm setting of `tool`; returns how many went (0 or 1)."""
        async with self.writing("remove a confirm setting from") as conn:
            return await queries.clear_confirm(conn, tool)

    async def policy_settings(self) -> list[dict[str, Any]]:
        """Every stored policy setting: `{"setting", "value", "updated_at", "updated_by"}`, by key path."""
        async with self.reading("read policy settings from") as conn:
            return await queries.stored_policy_settings(conn)

    async def set_policy_settings(self, values: Mapping[str, Any], *, actor: str = "operator") -> None:
        """Store policy settings by key path (`mode`, `preferences.showHintWarnings`), replacing those stored.

        The values are checked by the caller (`hintgate.policy.settings.layer_settings`); committed on return.

        Raises:
            StoreError: a key that is no policy setting, or a database failure.
        """
        known = {row.path for row in POLICY_SETTINGS}
        for setting in values:
            if setting not in known:
                raise StoreError(f"unknown policy setting {setting!r}: one of {', '.join(sorted(known))}")
        async with self.writing("write policy settings to") as conn:
            await queries.set_policy_settings(conn, values, actor=actor, now=datetime.now(UTC))

    async def clear_policy_settings(self, settings: Sequence[str] | None = None) -> int:
        """Remove stored policy settings (every one when None): the config file's values apply again."""
        async with self.writing("remove policy settings from") as conn:
            return await queries.clear_policy_settings(conn, settings)

    async def person_preferences(self) -> list[dict[str, Any]]:
        """Every person's own preferences: `{"person", "setting", "value", "updated_at"}`, by person and key path."""
        async with self.reading("read people's preferences from") as conn:
            return await queries.stored_person_preferences(conn)

    async def set_person_preferences(self, person: str, values: Mapping[str, Any], cleared: Sequence[str]) -> None:
        """Store a person's own preferences by key path and drop those in `cleared`, in one transaction.

        The values are checked by the caller (`hintgate.policy.preferences.personal_refusal`).

        Raises:
            StoreError: no person, a key that is no policy setting, or a database failure.
        """
        if not person:
            raise StoreError("a person's preferences need the person")
        known = {row.path for row in POLICY_SETTINGS}
        for setting in (*values, *cleared):
            if setting not in known:
                raise StoreError(f"unknown policy setting {setting!r}: one of {', '.join(sorted(known))}")
        async with self.writing("write a person's preferences to") as conn:
            if cleared:
                await queries.clear_person_preferences(conn, person, cleared)
            await queries.set_person_preferences(conn, person, values, now=datetime.now(UTC))

    async def version(self) -> int:
        """A number that changes whenever any stored override does: cheap to poll from other replicas."""
        async with self.reading("read the overrides version from") as conn:
            return await queries.overrides_version(conn)


def _check_hint(hint: str) -> None:
    try:
        Hint(hint)
    except ValueError:
        names = ", ".join(h.value for h in Hint)
        raise StoreError(f"unknown hint {hint!r}: one of {names}") from None
