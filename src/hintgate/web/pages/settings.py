"""The settings page: the policy mode and preferences, each with what it means."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hintgate.policy.rules import Mode
from hintgate.web import api
from hintgate.web.pages.frame import Choice, Layout, layout

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["SettingRow", "SettingsPage", "settings_page"]


@dataclass(frozen=True, slots=True)
class SettingRow:
    """One policy setting: its form field, its choices and what the current value means.

    Attributes:
        key: the form field's name; a dot nests it (`preferences.autoApproveReadOnly`).
        effect_key: the key of its sentence in the API's `effects`.
        label: what it is called.
        choices: the values it can take.
        effect: what the current value means, in a sentence.
    """

    key: str
    effect_key: str
    label: str
    choices: list[Choice]
    effect: str

    @property
    def field_id(self) -> str:
        """An HTML id for the field."""
        return "setting-" + self.key.replace(".", "-")


@dataclass(frozen=True, slots=True)
class SettingsPage:
    """The policy settings in force, what each means, and the config file's rules."""

    layout: Layout
    settings: list[SettingRow]
    approval_timeout: float
    retry_window: float
    rules: list[str]


_MODE_LABELS = {
    Mode.DEFAULT.value: "Default: reads run, everything else asks",
    Mode.ACCEPT_EDITS.value: "Accept edits: reads and additive writes run",
    Mode.READ_ONLY.value: "Read-only: only reads run",
    Mode.BYPASS.value: "Bypass: everything runs",
}


def settings_page(gateway: Gateway) -> SettingsPage:
    """The settings page."""
    policy = api.policy_out(gateway.calls.settings, gateway.calls.rules)
    effects = policy.effects

    def on_off(key: str, effect_key: str, label: str, value: bool, on: str = "On", off: str = "Off") -> SettingRow:
        return SettingRow(
            key, effect_key, label, [Choice("true", on, value), Choice("false", off, not value)], effects[effect_key]
        )

    prefs = policy.preferences
    return SettingsPage(
        layout=layout(gateway, "Settings", "settings"),
        settings=[
            SettingRow(
                "mode",
                "mode",
                "Mode",
                [Choice(m, label, policy.mode == m) for m, label in _MODE_LABELS.items()],
                effects["mode"],
            ),
            on_off(
                "preferences.autoApproveReadOnly",
                "autoApproveReadOnly",
                "Auto-approve read-only tools",
                prefs.autoApproveReadOnly,
            ),
            on_off(
                "preferences.alwaysConfirmDestructive",
                "alwaysConfirmDestructive",
                "Always confirm destructive tools",
                prefs.alwaysConfirmDestructive,
            ),
            on_off("preferences.showHintWarnings", "showHintWarnings", "Show hint warnings", prefs.showHintWarnings),
            on_off("taint", "taint", "Ask for writes after open-world content", policy.taint),
            SettingRow(
                "askVia",
                "askVia",
                "Where people are asked",
                [
                    Choice("client", "In the MCP client when it can ask", policy.askVia == "client"),
                    Choice("queue", "Always in the dashboard", policy.askVia == "queue"),
                ],
                effects["askVia"],
            ),
        ],
        approval_timeout=policy.approvalTimeout,
        retry_window=policy.idempotentRetryWindow,
        rules=policy.rules,
    )
