"""The policy in force as a call reads it: the settings, the rules, the result action, and a person's own
preferences laid over the settings for their calls."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hintgate.policy.preferences import owner_key, stricter

if TYPE_CHECKING:
    from hintgate.policy.in_force import PolicyInForce
    from hintgate.policy.principal import Principal
    from hintgate.policy.rules import PolicySettings, Rule
    from hintgate.scan.guard import OnResultFinding

__all__ = ["CallPolicy"]

_PERSONAL_KEPT = 4096  # people whose laid-over settings are remembered; the cache is emptied past it


class CallPolicy:
    """Reads the policy in force anew at every use (its keeper replaces it whole when it changes).

    Args:
        policy: gives the policy in force.
    """

    def __init__(self, policy: Callable[[], PolicyInForce]) -> None:
        self._policy = policy
        self._personal: dict[str, tuple[PolicySettings, Mapping[str, Any], PolicySettings]] = {}

    @property
    def settings(self) -> PolicySettings:
        """The policy settings in force."""
        return self._policy().settings

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The policy rules in force."""
        return self._policy().rules

    @property
    def on_result_finding(self) -> OnResultFinding:
        """What reaches the client when a result speaks to the model (`integrity.onResultFinding`)."""
        return self._policy().on_result_finding

    def settings_for(self, principal: Principal | None) -> PolicySettings:
        """The settings a principal's call is decided under: `settings`, with their own preferences laid over
        where they ask more (the same object while neither changes, so a decision taken ahead still holds)."""
        policy = self._policy()
        mine = policy.preferences.get(owner_key(principal)) if principal is not None else None
        if not mine:
            return policy.settings
        key = owner_key(principal) if principal is not None else ""
        cached = self._personal.get(key)
        if cached is not None and cached[0] is policy.settings and cached[1] is mine:
            return cached[2]
        if len(self._personal) >= _PERSONAL_KEPT:
            self._personal.clear()
        laid = stricter(policy.settings, mine)
        self._personal[key] = (policy.settings, mine, laid)
        return laid
