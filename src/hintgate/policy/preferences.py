"""A person's own preferences: toggles that make their own calls ask more, never less.

Pure. The mode and the preferences of `policy` are everyone's and an
admin's to change (`hintgate.policy.roles`). A person keeps their own
copy of some preferences (always confirm destructive tools, show hint
warnings in questions, auto-approve read-only tools), applied to their
own calls only, and only in the direction that asks more: a person can
turn on `alwaysConfirmDestructive` for themselves when everyone has it
off, never turn it off when everyone has it on. `stricter` lays them
over the settings in force for one call.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.policy.principal import Principal
from hintgate.policy.settings import POLICY_SETTINGS, PolicySetting, PolicySettings

__all__ = ["PERSONAL", "Personal", "owner_key", "personal_refusal", "stricter"]


@dataclass(frozen=True, slots=True)
class Personal:
    """One preference a person may keep for themselves.

    Attributes:
        setting: the policy setting it narrows (its key path is the person's key too).
        strict: the value that asks more; the only one a person may keep.
    """

    setting: PolicySetting
    strict: bool

    @property
    def path(self) -> str:
        """Its key path (`preferences.alwaysConfirmDestructive`), as the policy's."""
        return self.setting.path


def _setting(attr: str) -> PolicySetting:
    return next(s for s in POLICY_SETTINGS if s.attr == attr)


PERSONAL: tuple[Personal, ...] = (
    Personal(_setting("always_confirm_destructive"), strict=True),
    Personal(_setting("show_hint_warnings"), strict=True),
    Personal(_setting("auto_approve_read_only"), strict=False),
)
"""The preferences a person keeps, by key path, each with the value that asks more."""

_BY_PATH = {p.path: p for p in PERSONAL}


def owner_key(principal: Principal) -> str:
    """The key a principal's own preferences are kept under: who they are (`Principal.key`), never a name
    another account could have."""
    return principal.key


def personal_refusal(path: str, value: object) -> str | None:
    """Why a person may not keep `value` for the setting at `path`; None when they may (None clears it)."""
    personal = _BY_PATH.get(path)
    if personal is None:
        keys = ", ".join(p.path for p in PERSONAL)
        return f"{path}: not a preference a person keeps (one of {keys}); the rest are everyone's, set by an admin"
    if value is None:
        return None
    if not isinstance(value, bool):
        return f"{path}: expected true, false or null, got {value!r}"
    if value is not personal.strict:
        strict = str(personal.strict).lower()
        return (
            f"{path}: a person's own preference only makes their calls ask more, so it takes {strict} "
            f"(or null to follow everyone's)"
        )
    return None


def stricter(settings: PolicySettings, mine: Mapping[str, object] | None) -> PolicySettings:
    """`settings` with a person's preferences laid over them where they ask more (the rest are ignored)."""
    if not mine:
        return settings
    changes: dict[str, Any] = {
        p.setting.attr: p.strict
        for path, value in mine.items()
        if (p := _BY_PATH.get(path)) is not None and value is p.strict and getattr(settings, p.setting.attr) != p.strict
    }
    return dataclasses.replace(settings, **changes) if changes else settings
