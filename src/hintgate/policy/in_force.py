"""The policy in force: one immutable value that every call is decided under, replaced whole when it changes.

The settings (mode, approvers, what asks, timeouts), the rules, each person's own preferences and what reaches
the client when a result speaks to the model come from the config file with what operators and people changed
at run time laid over it. Whoever changes any of them makes a new value and puts it in place of the old one; a
call reads the value once it needs it, so it never sees half of a change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hintgate.policy.rules import PolicySettings, Rule
from hintgate.scan.guard import OnResultFinding

__all__ = ["PolicyInForce", "frozen_preferences"]


def frozen_preferences(people: Mapping[str, Mapping[str, Any]]) -> Mapping[str, Mapping[str, Any]]:
    """A read-only copy of each person's preferences (person key → key path → value)."""
    return MappingProxyType({person: MappingProxyType(dict(mine)) for person, mine in people.items()})


@dataclass(frozen=True, slots=True)
class PolicyInForce:
    """What calls are decided under right now.

    Attributes:
        settings: the policy settings (mode, approvers, asking, timeouts): the file's, stored ones laid over.
        rules: the policy rules, the stored confirm rules before the file's.
        preferences: each person's own preferences (person key → key path → value), laid over `settings`
            for their calls where they ask more (read-only; `frozen_preferences` makes one).
        on_result_finding: what reaches the client when a result speaks to the model (`integrity.onResultFinding`).
    """

    settings: PolicySettings
    rules: tuple[Rule, ...] = ()
    preferences: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    on_result_finding: OnResultFinding = OnResultFinding.REDACT

    @classmethod
    def of(
        cls,
        settings: PolicySettings,
        rules: Iterable[Rule] = (),
        *,
        preferences: Mapping[str, Mapping[str, Any]] | None = None,
        on_result_finding: OnResultFinding = OnResultFinding.REDACT,
    ) -> PolicyInForce:
        """The value for these parts, the rules and preferences copied so that nothing outside can change them."""
        return cls(settings, tuple(rules), frozen_preferences(preferences or {}), on_result_finding)
