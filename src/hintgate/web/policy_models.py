"""The REST API's policy models, made from `POLICY_SETTINGS` so they cannot drift from the config file.

`Policy` is what `GET /api/policy` answers, `PolicyIn` what `PATCH
/api/policy` takes: the same keys as the config file's `policy` section
(camelCase), with the preferences nested under `preferences`, each setting
typed and bounded as its row says.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, create_model

from hintgate.policy.rules import POLICY_SETTINGS, Mode, PolicySetting, PolicySettings, Rule, Taint
from hintgate.policy.settings import MODE_SPELLINGS, setting_values
from hintgate.web.api_model import ApiModel

__all__ = [
    "MODE_SPELLINGS",
    "GlobalApprovers",
    "Policy",
    "PolicyIn",
    "SettingOrigin",
    "effects",
    "flat_policy",
    "origins",
    "policy_out",
]


class _Strict(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")


def _type(row: PolicySetting, *, given: bool) -> Any:
    """The pydantic type of a setting: as answered, or as given in a PATCH (strict, bounded)."""
    if row.kind == "mode" and given:
        return Literal.__getitem__(tuple(MODE_SPELLINGS))
    if row.kind == "bool":
        return StrictBool if given else bool
    if row.kind == "seconds":
        bounded = Field(ge=0, le=row.maximum) if row.zero else Field(gt=0, le=row.maximum)
        return Annotated[float, bounded] if given else float
    if row.booleans is not None and given:  # a choice that was a bool once still takes true and false
        return Literal.__getitem__(row.choices) | StrictBool
    return Literal.__getitem__(row.choices)


def _fields(rows: Sequence[PolicySetting], *, given: bool) -> dict[str, Any]:
    if given:
        return {row.key: (_type(row, given=True) | None, Field(None, description=row.doc)) for row in rows}
    return {row.key: (_type(row, given=False), Field(description=row.doc)) for row in rows}


def _models(*, given: bool) -> type[BaseModel]:
    base: type[BaseModel] = _Strict if given else ApiModel
    groups: dict[str, list[PolicySetting]] = {}
    for row in POLICY_SETTINGS:
        groups.setdefault(row.group, []).append(row)
    fields: dict[str, Any] = {}
    for row in POLICY_SETTINGS:
        if not row.group:
            fields.update(_fields([row], given=given))
        elif row.group not in fields:
            suffix = "In" if given else ""
            nested = create_model(
                f"{row.group.title()}{suffix}", __base__=base, **_fields(groups[row.group], given=given)
            )
            fields[row.group] = (nested | None, None) if given else (nested, ...)
    if given:
        doc = "Settings to change; those left out are left alone."
        return create_model("PolicyIn", __base__=base, __doc__=doc, **fields)
    return create_model(
        "Policy",
        __base__=base,
        __doc__="The policy settings in force, and the rules: the confirm settings made through "
        "`PUT /api/tools/{name}/confirm` first, then the config file's (read-only here).",
        **fields,
        rules=(list[str], ...),
        approvers=(
            GlobalApprovers | None,
            Field(
                default=None,
                description="`policy.approvers` from the config file (read-only here): who answers every call "
                "that asks when its rule names no approvers; null when it names nobody (anyone signed in may).",
            ),
        ),
        selfApproval=(
            bool | None,
            Field(
                default=None,
                description="`policy.selfApproval` from the config file (read-only here): whether a person may "
                "answer their own call when its rule does not say; null when it is not set (they may not).",
            ),
        ),
        effects=(dict[str, str], Field(description="What the current settings mean, in a sentence each.")),
        origins=(
            dict[str, SettingOrigin],
            Field(
                default_factory=dict,
                description="Where each setting's value comes from, by key path (`preferences.showHintWarnings`).",
            ),
        ),
    )


class GlobalApprovers(ApiModel):
    """The people the config file's `policy.approvers` names; either list may be empty, not both."""

    users: list[str] = Field(description="User names or globs (`*@example.com`) that may answer.")
    groups: list[str] = Field(description="Groups whose members may answer.")


class SettingOrigin(ApiModel):
    """Where a policy setting's value in force comes from."""

    source: Literal["stored", "file", "default"] = Field(
        description="stored: changed through the API, dashboard or CLI and kept in the store, laid over the "
        "config file; file: the config file's `policy` section; default: neither sets it."
    )
    file_value: Any = Field(description="The config file's value (or the default): what a reset goes back to.")
    updated_at: datetime | None = Field(default=None, description="When a stored value was set.")
    updated_by: str | None = Field(default=None, description="Who set a stored value: api, dashboard, cli...")


def origins(file: PolicySettings, stored: Mapping[str, Mapping[str, Any]]) -> dict[str, SettingOrigin]:
    """Each setting's origin, by key path: stored (`stored` has it), else the file, else the default."""
    from_file = setting_values(file)
    defaults = setting_values(PolicySettings())
    out: dict[str, SettingOrigin] = {}
    for path, value in from_file.items():
        row = stored.get(path)
        if row is not None:
            out[path] = SettingOrigin(
                source="stored", file_value=value, updated_at=row.get("updated_at"), updated_by=row.get("updated_by")
            )
        else:
            out[path] = SettingOrigin(source="file" if value != defaults[path] else "default", file_value=value)
    return out


if TYPE_CHECKING:  # made at run time; to a type checker, models like any other
    Policy = BaseModel
    PolicyIn = BaseModel
else:
    Policy = _models(given=False)
    PolicyIn = _models(given=True)


def _out(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


def policy_out(
    settings: PolicySettings, rules: Sequence[Rule], where: Mapping[str, SettingOrigin] | None = None
) -> BaseModel:
    """The API's view of the policy settings; `where` says where each value comes from (`origins`)."""
    described = [rule.describe() + (" (set through the API or dashboard)" if rule.stored else "") for rule in rules]
    values: dict[str, Any] = {"rules": described, "effects": effects(settings), "origins": dict(where or {})}
    everywhere = settings.approvers
    if everywhere is not None:
        if everywhere.users or everywhere.groups:
            values["approvers"] = GlobalApprovers(users=list(everywhere.users), groups=sorted(everywhere.groups))
        values["selfApproval"] = everywhere.self_approval
    for row in POLICY_SETTINGS:
        value = _out(getattr(settings, row.attr))
        if row.group:
            values.setdefault(row.group, {})[row.key] = value
        else:
            values[row.key] = value
    return Policy.model_validate(values)


def flat_policy(given: Mapping[str, Any]) -> dict[str, Any]:
    """A validated `PolicyIn` dump (exclude_unset) as setting key path → value.

    Raises:
        ValueError: a setting was given as null; the message names it.
    """
    by_path = {row.path for row in POLICY_SETTINGS}
    flat: dict[str, Any] = {}
    for key, value in given.items():
        if isinstance(value, Mapping) and key not in by_path:
            flat.update((f"{key}.{k}", v) for k, v in value.items())
        else:
            flat[key] = value
    for path, value in flat.items():
        if value is None:
            raise ValueError(f"{path}: null is not a setting; leave it out to keep it")
    return flat


_TAINT_EFFECTS: Mapping[Taint, str] = {
    Taint.EVIDENCE: "After a tool whose open world rests on evidence (declared, inferred from what it does, or "
    "set) returned content, writes in that session ask first.",
    Taint.STRICT: "After any open-world tool returned content, the spec default included, writes in that session "
    "ask first.",
    Taint.OFF: "Content from open-world tools does not change what runs.",
}

_ASK_VIA_EFFECTS: Mapping[str, str] = {
    "client": "People are asked in their MCP client when it can ask, else in the dashboard.",
    "queue": "People are asked in the dashboard's approval queue.",
    "deny-unattended": "People are asked in their MCP client when it can ask, else in the approval queue; "
    "when nobody could answer that (no dashboard, no REST API, no store), the call is denied at once.",
}


def effects(settings: PolicySettings) -> dict[str, str]:
    """Each setting's effect, as a sentence a person reads, by its key."""
    mode = {
        Mode.DEFAULT: "Read-only tools run; everything else asks first.",
        Mode.ACCEPT_EDITS: "Read-only tools and additive writes run; destructive tools ask first.",
        Mode.READ_ONLY: "Only read-only tools run; every other call is denied.",
        Mode.BYPASS: "Everything runs without asking, except what a deny rule forbids.",
    }[settings.mode]
    return {
        "mode": mode,
        "autoApproveReadOnly": "Read-only tools run without asking."
        if settings.auto_approve_read_only
        else "Read-only tools ask first too.",
        "alwaysConfirmDestructive": "Destructive tools always ask, even in accept-edits mode."
        if settings.always_confirm_destructive
        else "In accept-edits mode destructive tools run without asking.",
        "showHintWarnings": "Approval questions show what the hints say (destructive, read-only, open world)."
        if settings.show_hint_warnings
        else "Approval questions do not show hint warnings.",
        "taint": _TAINT_EFFECTS[settings.taint],
        "idempotentRetryWindow": f"An identical approved call of an idempotent tool runs again without asking "
        f"for {settings.idempotent_retry_window:g} s."
        if settings.idempotent_retry_window
        else "Every call of an idempotent tool asks again.",
        "approvalTimeout": f"A person has {settings.approval_timeout:g} s to answer; then it expires, unrun.",
        "askVia": _ASK_VIA_EFFECTS.get(settings.ask_via, settings.ask_via),
        "judgeArguments": "Each call of a generic tool (SQL, a command line, an HTTP method, an action) is judged "
        "by its arguments: a SELECT runs as a read, a DROP asks."
        if settings.judge_arguments
        else "Every call of a tool carries the tool's own hints, whatever its arguments.",
    }
