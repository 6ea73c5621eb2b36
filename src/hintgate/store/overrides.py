"""The store's operator overrides: hint values, titles and confirms by public tool name, policy settings laid
over the config file, and their version counter."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement

from hintgate.errors import StoreError
from hintgate.hints.annotations import Hint
from hintgate.hints.titles import title_problem
from hintgate.policy.rules import Confirm
from hintgate.policy.settings import POLICY_SETTINGS
from hintgate.store import queries
from hintgate.store.part import StorePart
from hintgate.store.queries import Versioned
from hintgate.store.tables import hint_overrides, person_preferences, policy_settings, title_overrides, tool_confirms

__all__ = ["CONFIRM_VALUES", "Overrides"]

CONFIRM_VALUES = tuple(confirm.value for confirm in Confirm)
"""The values of a stored confirm setting: `hintgate.policy.rules.Confirm`'s."""

_HINTS = Versioned(hint_overrides, ("tool", "hint"))
_TITLES = Versioned(title_overrides, ("tool",))
_CONFIRMS = Versioned(tool_confirms, ("tool",))
_POLICY = Versioned(policy_settings, ("setting",))
_PREFERENCES = Versioned(person_preferences, ("person", "setting"))


class Overrides(StorePart):
    """The operators' overrides kept in a database: `Store.overrides`.

    Every method commits (or reads) on its own connection; every replica on the
    same database sees a change once it is returned (`version` tells them).


    Made with the store's engine and URL (`StorePart`).
    """

    async def hints(self) -> list[dict[str, Any]]:
        """Every stored override: `{"tool", "hint", "value", "updated_at", "updated_by"}`, by tool and hint."""
        return await self._rows("read overrides from", _HINTS)

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
        await self._put("write an override to", _HINTS, [{"tool": tool, "hint": hint, "value": value, **_stamp(actor)}])

    async def clear_hint(self, tool: str, hint: str | None = None) -> int:
        """Remove one stored override of `tool`, or all of them when `hint` is `None`; returns how many went."""
        if hint is not None:
            _check_hint(hint)
        which = () if hint is None else (hint_overrides.c.hint == hint,)
        return await self._delete("remove an override from", _HINTS, hint_overrides.c.tool == tool, *which)

    async def titles(self) -> list[dict[str, Any]]:
        """Every stored title override: `{"tool", "title", "updated_at", "updated_by"}`, by tool."""
        return await self._rows("read title overrides from", _TITLES)

    async def set_title(self, tool: str, title: str, *, actor: str = "operator") -> None:
        """Set the title of one tool, replacing any stored one; committed on return.

        Raises:
            StoreError: an empty tool name, a title `title_problem` refuses, or a database failure.
        """
        problem = "an override needs a tool name" if not tool else title_problem(title)
        if problem:
            raise StoreError(f"title of {tool!r}: {problem}")
        await self._put("write a title override to", _TITLES, [{"tool": tool, "title": title, **_stamp(actor)}])

    async def clear_title(self, tool: str) -> int:
        """Remove the stored title of `tool`; returns how many went (0 or 1)."""
        return await self._delete("remove a title override from", _TITLES, title_overrides.c.tool == tool)

    async def confirms(self) -> list[dict[str, Any]]:
        """Every stored confirm setting: `{"tool", "confirm", "updated_at", "updated_by"}`, by tool name or glob."""
        return await self._rows("read confirm settings from", _CONFIRMS)

    async def set_confirm(self, tool: str, confirm: str, *, actor: str = "operator") -> None:
        """Set how often a tool (a public name or a glob over them) asks: first, always or never.

        Raises:
            StoreError: an empty tool name, another confirm value, or a database failure.
        """
        if not tool:
            raise StoreError("a confirm setting needs a tool name or glob")
        if confirm not in CONFIRM_VALUES:
            raise StoreError(f"confirm of {tool!r}: {confirm!r} is not one of {', '.join(CONFIRM_VALUES)}")
        await self._put("write a confirm setting to", _CONFIRMS, [{"tool": tool, "confirm": confirm, **_stamp(actor)}])

    async def clear_confirm(self, tool: str) -> int:
        """Remove the stored confirm setting of `tool`; returns how many went (0 or 1)."""
        return await self._delete("remove a confirm setting from", _CONFIRMS, tool_confirms.c.tool == tool)

    async def policy_settings(self) -> list[dict[str, Any]]:
        """Every stored policy setting: `{"setting", "value", "updated_at", "updated_by"}`, by key path."""
        return await self._rows("read policy settings from", _POLICY)

    async def set_policy_settings(self, values: Mapping[str, Any], *, actor: str = "operator") -> None:
        """Store policy settings by key path (`mode`, `preferences.showHintWarnings`), replacing those stored.

        The values are checked by the caller (`hintgate.policy.settings.layer_settings`); committed on return.

        Raises:
            StoreError: a key that is no policy setting, or a database failure.
        """
        _check_settings(values)
        stamp = _stamp(actor)
        rows = [{"setting": key, "value": value, **stamp} for key, value in values.items()]
        await self._put("write policy settings to", _POLICY, rows)

    async def clear_policy_settings(self, settings: Sequence[str] | None = None) -> int:
        """Remove stored policy settings (every one when None): the config file's values apply again."""
        which = () if settings is None else (policy_settings.c.setting.in_(list(settings)),)
        return await self._delete("remove policy settings from", _POLICY, *which)

    async def person_preferences(self) -> list[dict[str, Any]]:
        """Every person's own preferences: `{"person", "setting", "value", "updated_at"}`, by person and key path."""
        return await self._rows("read people's preferences from", _PREFERENCES)

    async def set_person_preferences(self, person: str, values: Mapping[str, Any], cleared: Sequence[str]) -> None:
        """Store a person's own preferences by key path and drop those in `cleared`, in one transaction.

        The values are checked by the caller (`hintgate.policy.preferences.personal_refusal`).

        Raises:
            StoreError: no person, a key that is no policy setting, or a database failure.
        """
        if not person:
            raise StoreError("a person's preferences need the person")
        _check_settings((*values, *cleared))
        async with self.writing("write a person's preferences to") as conn:
            if cleared:
                mine = person_preferences.c.person == person
                await _PREFERENCES.delete(conn, mine, person_preferences.c.setting.in_(list(cleared)))
            now = datetime.now(UTC)
            await _PREFERENCES.put(
                conn, [{"person": person, "setting": key, "value": v, "updated_at": now} for key, v in values.items()]
            )

    async def _rows(self, doing: str, table: Versioned) -> list[dict[str, Any]]:
        """Every row of `table`, in key order; `doing` completes "cannot … the database" in an error."""
        async with self.reading(doing) as conn:
            return await table.rows(conn)

    async def _put(self, doing: str, table: Versioned, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert or replace `rows` of `table`, committed on return; `doing` as in `_rows`."""
        async with self.writing(doing) as conn:
            await table.put(conn, rows)

    async def _delete(self, doing: str, table: Versioned, *where: ColumnElement[bool]) -> int:
        """Delete the rows of `table` matching every condition, committed on return; `doing` as in `_rows`."""
        async with self.writing(doing) as conn:
            return await table.delete(conn, *where)

    async def version(self) -> int:
        """A number that changes whenever any stored override does: cheap to poll from other replicas."""
        async with self.reading("read the overrides version from") as conn:
            return await queries.overrides_version(conn)


def _stamp(actor: str) -> dict[str, Any]:
    """When and by whom a row is written: its `updated_at` and `updated_by`."""
    return {"updated_at": datetime.now(UTC), "updated_by": actor}


def _check_settings(settings: Iterable[str]) -> None:
    """Refuse a key path that is no policy setting (`POLICY_SETTINGS`), naming those there are."""
    known = {row.path for row in POLICY_SETTINGS}
    for setting in settings:
        if setting not in known:
            raise StoreError(f"unknown policy setting {setting!r}: one of {', '.join(sorted(known))}")


def _check_hint(hint: str) -> None:
    try:
        Hint(hint)
    except ValueError:
        names = ", ".join(h.value for h in Hint)
        raise StoreError(f"unknown hint {hint!r}: one of {names}") from None
