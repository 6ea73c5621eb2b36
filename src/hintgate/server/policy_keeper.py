"""The policy keeper: the config file's policy with what was changed at run time laid over it, as one value.

It holds the file's settings, rules and result action, reads what operators and people changed at run time from
the stored overrides (`hintgate.server.overrides`), and makes a new `PolicyInForce` whenever either changes; the
pipeline reads the value in force through `current`, never a field patched in place.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from hintgate.policy.in_force import PolicyInForce
from hintgate.policy.preferences import personal_refusal
from hintgate.policy.rules import Confirm, PolicySettings, Rule, confirm_rule
from hintgate.policy.settings import layer_settings, setting_values
from hintgate.scan.guard import OnResultFinding
from hintgate.server.overrides import StoredOverrides

__all__ = ["PolicyKeeper"]

logger = logging.getLogger(__name__)


class PolicyKeeper:
    """The policy in force, made from the config file's and the stored changes over it.

    Args:
        overrides: the stored overrides (policy settings, confirm rules, people's preferences).
        settings: the config file's policy settings.
        rules: the config file's rules.
        on_result_finding: the config file's `integrity.onResultFinding`.
    """

    def __init__(
        self,
        overrides: StoredOverrides,
        settings: PolicySettings,
        rules: tuple[Rule, ...],
        on_result_finding: OnResultFinding = OnResultFinding.REDACT,
    ) -> None:
        self._overrides = overrides
        self._file = PolicyInForce.of(settings, rules, on_result_finding=on_result_finding)
        self._current = self._file
        self.refresh()

    def current(self) -> PolicyInForce:
        """The policy in force now (a new value after every change; the old one stays as it was)."""
        return self._current

    @property
    def file_settings(self) -> PolicySettings:
        """The policy settings of the config file (or the defaults), under those changed at run time."""
        return self._file.settings

    def stored_settings(self) -> Mapping[str, Mapping[str, Any]]:
        """The policy settings changed at run time: key path → its stored row (`value`, `updated_at`, `updated_by`)."""
        return self._overrides.policy

    def from_file(self, settings: PolicySettings, rules: tuple[Rule, ...], on_result_finding: OnResultFinding) -> None:
        """Take a reloaded config file's policy; the stored changes stay laid over it."""
        self._file = PolicyInForce.of(settings, rules, on_result_finding=on_result_finding)
        self.refresh()

    def refresh(self) -> None:
        """Make the value in force again from the file's and the stored overrides (after they were read anew)."""
        # Stored settings over the file's; a stored value this version cannot read is skipped, loudly.
        settings = self._file.settings
        for path, row in sorted(self._overrides.policy.items()):
            try:
                settings = layer_settings(settings, {path: row["value"]})
            except ValueError as exc:
                logger.warning("stored policy setting ignored: %s", exc)
        # Stored confirms are tool rules placed before the config file's: see docs/policy.md for precedence.
        stored = tuple(confirm_rule(tool, confirm) for tool, confirm in sorted(self._overrides.confirms.items()))
        self._current = PolicyInForce.of(
            settings,
            (*stored, *self._file.rules),
            preferences=self._overrides.people,
            on_result_finding=self._file.on_result_finding,
        )

    async def set(self, values: Mapping[str, Any], *, actor: str) -> None:
        """Change policy settings (key path → value), kept in the store and in force from the next call.

        A value equal to the config file's is not kept: that setting follows
        the file again. Other replicas sharing the store pick the change up.

        Raises:
            ValueError: a key that is no setting or a value it does not take; nothing is changed.
        """
        wanted = setting_values(layer_settings(self._current.settings, values))
        from_file = setting_values(self._file.settings)
        keep = {path: wanted[path] for path in values if wanted[path] != from_file[path]}
        cleared = [path for path in values if path not in keep and path in self._overrides.policy]
        await self._overrides.apply_policy(keep, cleared, actor=actor)
        self.refresh()
        for path in values:
            said = "kept in the store" if path in keep else "the config file's value"
            logger.info("policy: %s is %s (%s, by %s)", path, wanted[path], said, actor)

    async def reset(self, paths: Sequence[str] | None = None, *, actor: str) -> list[str]:
        """Drop stored policy settings (every one when None): the config file's values apply again.

        Returns the settings that were stored and now follow the file.

        Raises:
            ValueError: a key that is no policy setting.
        """
        known = setting_values(self._file.settings)
        for path in paths or ():
            if path not in known:
                raise ValueError(f"{path}: not a policy setting (one of {', '.join(known)})")
        stored = self._overrides.policy
        cleared = [p for p in (paths if paths is not None else list(stored)) if p in stored]
        if cleared:
            await self._overrides.apply_policy({}, cleared, actor=actor)
            self.refresh()
            logger.info("policy: %s reset to the config file's value by %s", ", ".join(cleared), actor)
        return cleared

    async def set_person(self, person: str, values: Mapping[str, Any]) -> dict[str, Any]:
        """Keep a person's own preferences (key path → value, None clears one), in force for their next call.

        Returns what the person keeps now.

        Raises:
            ValueError: a key that is no preference a person keeps, or a value that would not ask more.
        """
        for path, value in values.items():
            refusal = personal_refusal(path, value)
            if refusal is not None:
                raise ValueError(refusal)
        keep = {path: value for path, value in values.items() if value is not None}
        cleared = [path for path, value in values.items() if value is None]
        await self._overrides.apply_person(person, keep, cleared)
        self.refresh()
        logger.info("preferences of %s: %s", person, ", ".join(f"{k}={v}" for k, v in values.items()) or "none")
        return dict(self._overrides.people.get(person, {}))

    async def set_confirm(self, tool: str, confirm: Confirm | None, *, actor: str) -> None:
        """Set (or clear, None) how often a public tool name or glob asks; in force for the next call."""
        await self._overrides.apply_confirm(tool, confirm, actor=actor)
        self.refresh()
