"""The settings page: the policy mode and preferences, each with what it means and where its value comes from."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hintgate.policy.preferences import PERSONAL, stricter
from hintgate.policy.principal import Approvers
from hintgate.policy.rules import POLICY_SETTINGS, Mode, PolicySetting
from hintgate.web.pages.frame import Choice, Layout, layout
from hintgate.web.policy_models import SettingOrigin, effects, origins

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["MyPreferenceRow", "SettingRow", "SettingsPage", "settings_page"]


@dataclass(frozen=True, slots=True)
class SettingRow:
    """One policy setting: its form field, its choices and what the current value means.

    Attributes:
        key: the form field's name; a dot nests it (`preferences.autoApproveReadOnly`).
        effect_key: the key of its sentence in the API's `effects`.
        label: what it is called.
        choices: the values it can take.
        effect: what the current value means, in a sentence.
        origin: where the value in force comes from, in words.
        stored: whether it was changed at run time and kept in the store (a reset puts the file's back).
    """

    key: str
    effect_key: str
    label: str
    choices: list[Choice]
    effect: str
    origin: str = ""
    stored: bool = False

    @property
    def field_id(self) -> str:
        """An HTML id for the field."""
        return "setting-" + self.key.replace(".", "-")


@dataclass(frozen=True, slots=True)
class MyPreferenceRow:
    """One preference a person keeps for their own calls (`hintgate.policy.preferences`).

    Attributes:
        key: the form field's name (`preferences.alwaysConfirmDestructive`).
        label: what it is called.
        strict: the value that asks more, the only one a person keeps ("true" or "false").
        strict_label: what keeping it means, in words.
        mine: whether the person keeps it now.
        everyone: everyone's value, in words.
        in_force: what the person's calls get, in words.
    """

    key: str
    label: str
    strict: str
    strict_label: str
    mine: bool
    everyone: str
    in_force: str

    @property
    def field_id(self) -> str:
        """An HTML id for the field."""
        return "mine-" + self.key.replace(".", "-")


@dataclass(frozen=True, slots=True)
class SettingsPage:
    """The policy settings in force, what each means, and the config file's rules."""

    layout: Layout
    settings: list[SettingRow]
    approval_timeout: float
    retry_window: float
    rules: list[str]
    kept: bool = True
    """Whether changes are kept in the store (else they last until hintgate stops)."""
    timeout_origin: str = ""
    """Where the approval timeout comes from, in words."""
    retry_origin: str = ""
    """Where the idempotent retry window comes from, in words."""
    stored: int = 0
    """How many settings were changed at run time and are kept."""
    approvers: str = ""
    """Who answers a call that asks when its rule names nobody (`policy.approvers`), in a sentence."""
    self_approval: str = ""
    """Whether a person answers their own call when its rule does not say (`policy.selfApproval`), in a sentence."""
    people: bool = False
    """Whether the gateway knows people (an `identity` section): without, approvers do not apply."""
    mine: list[MyPreferenceRow] = field(default_factory=list)
    """The reader's own preferences, when the gateway knows people and the reader is someone."""


_CHOICE_LABELS: dict[str, dict[str, str]] = {
    "mode": {
        Mode.DEFAULT.value: "Default: reads run, everything else asks",
        Mode.ACCEPT_EDITS.value: "Accept edits: reads and additive writes run",
        Mode.READ_ONLY.value: "Read-only: only reads run",
        Mode.BYPASS.value: "Bypass: everything runs",
    },
    "askVia": {
        "client": "In the MCP client when it can ask",
        "queue": "Always in the dashboard",
        "deny-unattended": "In the MCP client; deny when nobody can answer",
    },
    "taint": {
        "evidence": "After tools known to reach the open world",
        "strict": "After any tool that may reach the open world",
        "off": "Off",
    },
    "bool": {"true": "On", "false": "Off"},
}


def _origin_text(origin: SettingOrigin) -> str:
    if origin.source == "stored":
        when = origin.updated_at.strftime("%Y-%m-%d %H:%M UTC") if origin.updated_at else "earlier"
        shown = str(origin.file_value).lower() if isinstance(origin.file_value, bool) else origin.file_value
        return f"Changed here by {origin.updated_by or 'someone'} ({when}); the config file says {shown}."
    if origin.source == "file":
        return "From the config file."
    return "The default: the config file does not set it."


def _row(setting: PolicySetting, value: object, effect: str, origin: SettingOrigin | None = None) -> SettingRow:
    if setting.kind == "bool":
        labels = _CHOICE_LABELS["bool"]
        choices = [Choice("true", labels["true"], value is True), Choice("false", labels["false"], value is False)]
    else:
        shown = value.value if isinstance(value, enum.Enum) else value
        labels = _CHOICE_LABELS.get(setting.key, {})
        choices = [Choice(c, labels.get(c, c), shown == c) for c in setting.choices]
    return SettingRow(
        setting.path,
        setting.key,
        setting.label,
        choices,
        effect,
        origin=_origin_text(origin) if origin is not None else "",
        stored=origin is not None and origin.source == "stored",
    )


def _who_answers(everywhere: Approvers | None) -> tuple[str, str]:
    """The global approvers and selfApproval, each in a sentence."""
    if everywhere is not None and (everywhere.users or everywhere.groups):
        who = f"A call that asks is answered by {everywhere.describe()}, unless its rule names its own approvers."
    else:
        who = "An admin (identity.admins) or the API token answers a call that asks, unless its rule names approvers."
    if everywhere is not None and everywhere.self_approval:
        own = "A person may answer their own call, unless its rule says selfApproval: false."
    else:
        own = "Nobody answers their own call, unless its rule says selfApproval: true."
    return who, own


_STRICT_LABELS = {
    "preferences.alwaysConfirmDestructive": "Destructive tools always ask me",
    "preferences.showHintWarnings": "Questions about my calls show the hint warnings",
    "preferences.autoApproveReadOnly": "Read-only tools ask me too",
}


def _mine(gateway: Gateway, person: str) -> list[MyPreferenceRow]:
    """A person's own preferences beside everyone's and what their calls get."""
    policy = gateway.policy.current()
    kept = policy.preferences.get(person, {})
    everyone = policy.settings
    in_force = stricter(everyone, kept)
    on_off = {True: "on", False: "off"}
    return [
        MyPreferenceRow(
            key=p.path,
            label=p.setting.label,
            strict=str(p.strict).lower(),
            strict_label=_STRICT_LABELS.get(p.path, f"{p.setting.label}: {on_off[p.strict]}"),
            mine=kept.get(p.path) is p.strict,
            everyone=on_off[bool(getattr(everyone, p.setting.attr))],
            in_force=on_off[bool(getattr(in_force, p.setting.attr))],
        )
        for p in PERSONAL
    ]


def settings_page(gateway: Gateway, person: str | None = None) -> SettingsPage:
    """The settings page: every setting a person picks from choices; the seconds are listed as set; with
    `person` (a reader the gateway knows by name), their own preferences too."""
    keeper = gateway.policy
    in_force = keeper.current()
    settings = in_force.settings
    said = effects(settings)
    where = origins(keeper.file_settings, keeper.stored_settings())
    rows = [
        _row(s, getattr(settings, s.attr), said[s.key], where[s.path]) for s in POLICY_SETTINGS if s.kind != "seconds"
    ]
    who, own = _who_answers(settings.approvers)
    return SettingsPage(
        layout=layout(gateway, "Settings", "settings"),
        settings=rows,
        approval_timeout=settings.approval_timeout,
        retry_window=settings.idempotent_retry_window,
        rules=[rule.describe() for rule in in_force.rules],
        kept=gateway.store is not None,
        timeout_origin=_origin_text(where["approvalTimeout"]),
        retry_origin=_origin_text(where["idempotentRetryWindow"]),
        stored=sum(1 for o in where.values() if o.source == "stored"),
        approvers=who,
        self_approval=own,
        people=gateway.identity is not None,
        mine=_mine(gateway, person) if person is not None and gateway.identity is not None else [],
    )
