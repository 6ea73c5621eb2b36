"""The policy's settings: the mode, the preferences, taint, retries and asking, and one table describing them.

Pure. `POLICY_SETTINGS` is the one description of every setting that the
config parser (`hintgate.policy.rules`), the REST API's models, the dashboard's
settings page and the docs test read, so a setting is added or renamed here
only. `hintgate.policy.rules` exports these names too.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from hintgate.policy.principal import Approvers

__all__ = [
    "MODE_SPELLINGS",
    "POLICY_SETTINGS",
    "Mode",
    "PolicySetting",
    "PolicySettings",
    "SettingKind",
    "Taint",
    "layer_settings",
    "setting_values",
]


class Mode(enum.StrEnum):
    """How much runs without asking when no rule decides."""

    DEFAULT = "default"
    ACCEPT_EDITS = "accept-edits"
    READ_ONLY = "read-only"
    BYPASS = "bypass"


class Taint(enum.StrEnum):
    """Which tools' results taint a session, so that later writes ask."""

    EVIDENCE = "evidence"
    """Tools whose open world rests on evidence: declared, inferred from what they do, or overridden."""
    STRICT = "strict"
    """Every tool whose open-world hint is true, the spec default included."""
    OFF = "off"
    """None: content a tool returns never changes what runs."""


@dataclass(frozen=True, slots=True)
class PolicySettings:
    """The policy's settings; the defaults ask before anything that is not a read.

    Attributes:
        mode: what runs without asking when no rule decides.
        auto_approve_read_only: read-only tools run without asking in default and accept-edits.
        always_confirm_destructive: destructive tools ask in accept-edits (bypass is not affected).
        show_hint_warnings: approval prompts carry the hint warnings.
        taint: which tools' results taint a session (after which writes ask):
            `evidence`, `strict` or `off` (`Taint`).
        idempotent_retry_window: seconds during which an identical approved call
            of an idempotent tool runs again without asking; 0 turns it off.
        approval_timeout: seconds the gateway waits for a person before denying.
        ask_via: how a person is asked: "client" (MCP elicitation when the client
            supports it, else the approval queue), "queue" (always the queue,
            answered in the dashboard or through the REST API) or
            "deny-unattended" (as "client", but when nobody could answer the
            queue, with no dashboard or REST API served and no store keeping
            it, an ask is denied at once with how to set one up).
        approvers: who answers a person's call that asks when the deciding rule names no approvers
            (`policy.approvers`, `policy.selfApproval`; see `Approvers.over`); None: anyone signed in,
            and never the caller. Read from the config file only, not one of `POLICY_SETTINGS`.
        judge_arguments: each call of a tool whose parameter decides what it does (SQL, a command line,
            an HTTP method, an action) is decided by what its arguments do (`hintgate.hints.calls`);
            off, every call of a tool has the tool's own hints, as before per-call hints.
    """

    mode: Mode = Mode.DEFAULT
    auto_approve_read_only: bool = True
    always_confirm_destructive: bool = True
    show_hint_warnings: bool = True
    taint: Taint = Taint.EVIDENCE
    idempotent_retry_window: float = 600.0
    approval_timeout: float = 50.0
    ask_via: str = "client"
    approvers: Approvers | None = None
    judge_arguments: bool = True

    @property
    def taint_enabled(self) -> bool:
        """Whether any tool's result can taint a session."""
        return self.taint is not Taint.OFF


SettingKind = Literal["mode", "bool", "seconds", "choice"]


@dataclass(frozen=True, slots=True)
class PolicySetting:
    """One policy setting as every reader of it sees it: spelling, type, bounds, meaning.

    The config parser, the REST API's models, the dashboard's settings page
    and the docs test all read `POLICY_SETTINGS`, so a setting is added or
    renamed in one place.

    Attributes:
        attr: its `PolicySettings` attribute.
        key: its key in the config file and the REST API (camelCase); the
            snake_case spelling is accepted in the config file too.
        kind: "mode" (a `Mode`), "bool", "seconds" or "choice" (one of `choices`).
        doc: what it does, in one line.
        label: what the settings page calls it.
        group: the mapping it sits in under `policy` ("preferences"), or "" at the top.
        choices: the values a mode or choice takes, as written.
        noun: what one of its choices is called in errors ("expected a mode: ...").
        booleans: the choices `false` and `true` stand for, for a choice that was a bool once.
        zero: whether 0 seconds is allowed (else more than 0 is required).
        maximum: the most seconds accepted.
    """

    attr: str
    key: str
    kind: SettingKind
    doc: str
    label: str
    group: str = ""
    choices: tuple[str, ...] = ()
    noun: str = ""
    booleans: tuple[str, str] | None = None
    zero: bool = False
    maximum: float = 86400.0

    @property
    def path(self) -> str:
        """Its key path under `policy` (`preferences.autoApproveReadOnly`)."""
        return f"{self.group}.{self.key}" if self.group else self.key

    @property
    def spellings(self) -> tuple[str, ...]:
        """The keys the config file accepts for it: camelCase, and snake_case when that differs."""
        snake = re.sub(r"(?<!^)([A-Z])", r"_\1", self.key).lower()
        return (self.key,) if snake == self.key else (self.key, snake)

    @property
    def default(self) -> Any:
        """Its value when nothing sets it."""
        return getattr(_DEFAULTS, self.attr)


_DEFAULTS = PolicySettings()

POLICY_SETTINGS: tuple[PolicySetting, ...] = (
    PolicySetting(
        "mode",
        "mode",
        "mode",
        "what runs without asking when no rule decides",
        "Mode",
        choices=tuple(m.value for m in Mode),
        noun="mode",
    ),
    PolicySetting(
        "auto_approve_read_only",
        "autoApproveReadOnly",
        "bool",
        "read-only tools run without asking in default and accept-edits",
        "Auto-approve read-only tools",
        group="preferences",
    ),
    PolicySetting(
        "always_confirm_destructive",
        "alwaysConfirmDestructive",
        "bool",
        "destructive tools ask in accept-edits",
        "Always confirm destructive tools",
        group="preferences",
    ),
    PolicySetting(
        "show_hint_warnings",
        "showHintWarnings",
        "bool",
        "approval prompts show the hint warnings",
        "Show hint warnings",
        group="preferences",
    ),
    PolicySetting(
        "taint",
        "taint",
        "choice",
        "which tools' results make later writes ask: evidence (open world declared, inferred from what the "
        "tool does, or set), strict (open world by the spec default too), off; true means evidence, false off",
        "Ask for writes after open-world content",
        choices=tuple(t.value for t in Taint),
        noun="taint setting",
        booleans=(Taint.OFF.value, Taint.EVIDENCE.value),
    ),
    PolicySetting(
        "idempotent_retry_window",
        "idempotentRetryWindow",
        "seconds",
        "seconds an identical approved call of an idempotent tool runs again without asking; 0 turns it off",
        "Idempotent retry window",
        zero=True,
    ),
    PolicySetting(
        "approval_timeout",
        "approvalTimeout",
        "seconds",
        "seconds a call waits for a person; then it expires and does not run",
        "Approval timeout",
    ),
    PolicySetting(
        "ask_via",
        "askVia",
        "choice",
        "client: MCP elicitation when the client can ask, else the approval queue; queue: always the queue; "
        "deny-unattended: as client, but deny at once when nobody could answer the queue",
        "Where people are asked",
        choices=("client", "queue", "deny-unattended"),
        noun="way to ask",
    ),
    PolicySetting(
        "judge_arguments",
        "judgeArguments",
        "bool",
        "each call of a generic tool (SQL, a command line, an HTTP method, an action) is decided by what its "
        "arguments do; off, every call has its tool's own hints",
        "Judge each call by its arguments",
    ),
)
"""Every policy setting, in the order the docs, the API and the settings page show them."""


def _camel(words: str) -> str:
    first, *rest = words.split("-")
    return first + "".join(word.title() for word in rest)


MODE_SPELLINGS: Mapping[str, Mode] = {
    spelling: mode for mode in Mode for spelling in (mode.value, mode.value.replace("-", "_"), _camel(mode.value))
}
"""A mode as the config file and the REST API take it: accept-edits, accept_edits or acceptEdits."""


def _checked(row: PolicySetting, value: Any) -> Any:
    """`value` as `row`'s attribute takes it; ValueError naming the setting when it is not one of its values."""
    if row.kind == "mode":
        if isinstance(value, str) and value in MODE_SPELLINGS:
            return MODE_SPELLINGS[value]
        raise ValueError(f"{row.path}: {value!r} is not a mode: one of {', '.join(row.choices)}")
    if row.kind == "bool":
        if isinstance(value, bool):
            return value
        raise ValueError(f"{row.path}: expected true or false, got {value!r}")
    if row.kind == "seconds":
        if isinstance(value, int | float) and not isinstance(value, bool):
            low_ok = value >= 0 if row.zero else value > 0
            if low_ok and value <= row.maximum:
                return float(value)
        least = "0 or more" if row.zero else "more than 0"
        raise ValueError(f"{row.path}: expected seconds, {least} and at most {row.maximum:g}, got {value!r}")
    if row.booleans is not None and isinstance(value, bool):
        value = row.booleans[value]
    if isinstance(value, str) and value in row.choices:
        return Taint(value) if row.attr == "taint" else value
    raise ValueError(f"{row.path}: {value!r} is not a {row.noun}: one of {', '.join(row.choices)}")


def layer_settings(base: PolicySettings, values: Mapping[str, Any]) -> PolicySettings:
    """`base` with `values` (setting key path → value as the config file writes it) laid over it.

    This is how the settings changed at run time (the REST API, the dashboard)
    sit over the config file's: a setting given here wins, the others are the
    file's.

    Raises:
        ValueError: a key that is no setting, or a value the setting does not take; the message names it.
    """
    by_path = {row.path: row for row in POLICY_SETTINGS}
    changes: dict[str, Any] = {}
    for path, value in values.items():
        row = by_path.get(path)
        if row is None:
            raise ValueError(f"{path}: not a policy setting (one of {', '.join(by_path)})")
        changes[row.attr] = _checked(row, value)
    return dataclasses.replace(base, **changes)


def setting_values(settings: PolicySettings) -> dict[str, Any]:
    """Every setting's value by key path, as the config file and the REST API write it."""
    out: dict[str, Any] = {}
    for row in POLICY_SETTINGS:
        value = getattr(settings, row.attr)
        out[row.path] = value.value if isinstance(value, enum.Enum) else value
    return out
