"""The policy's vocabulary and configuration: modes, verdicts, settings, rules, and their parser.

Pure: no I/O, nothing from the MCP SDK, the web stack or the database.
The settings (`PolicySettings`, the `POLICY_SETTINGS` table, `Mode`, `Taint`)
live in `hintgate.policy.settings` and are exported here too.
`hintgate.policy.decide` decides calls with these; this module only says what an
operator wrote and checks it. docs/policy.md is the reference of every key.

A rule may say how often its tools ask (`confirm: first | always | never`,
per tool or glob): `first` and `always` go in ask rules, `never` in allow
rules, so a confirm setting takes the place and precedence of the rule that
carries it (tool rule > server rule > global; deny > ask > allow).

A rule's *level* follows from what it names: a `tool` pattern makes it a tool
rule, else a `server` pattern a server rule, else it is a global rule (it
matches by tier and hints alone). Globs are compiled once, here, so deciding a
call costs a few regex matches and attribute reads.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import fnmatch
import json
import math
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn

from hintgate.config.yamlpos import format_path
from hintgate.errors import ConfigError
from hintgate.hints.annotations import Hint, Resolved, Tier
from hintgate.hints.names import NameGlob
from hintgate.policy.argmatch import ArgPattern, path_problem
from hintgate.policy.principal import Approvers, Principal
from hintgate.policy.settings import POLICY_SETTINGS, Mode, PolicySetting, PolicySettings, Taint

__all__ = [
    "POLICY_SETTINGS",
    "Confirm",
    "Level",
    "Mode",
    "PolicySetting",
    "PolicySettings",
    "Rule",
    "Taint",
    "Verdict",
    "confirm_rule",
    "parse_policy",
]


class Verdict(enum.StrEnum):
    """What happens to a call: it runs, a person is asked, or it is refused."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


class Confirm(enum.StrEnum):
    """How often a tool a rule names asks a person (`confirm:` in a rule)."""

    FIRST = "first"
    """An ask rule: the first call in a session asks; once a person approves it, the tool runs for the session."""
    ALWAYS = "always"
    """An ask rule: every call asks; approvals for the session and idempotent retries do not waive it."""
    NEVER = "never"
    """An allow rule: it runs without asking (taint and deny rules still apply)."""


_CONFIRM_EFFECT = {Confirm.FIRST: "ask", Confirm.ALWAYS: "ask", Confirm.NEVER: "allow"}


class Level(enum.StrEnum):
    """How specific a rule is; a more specific level decides before a less specific one."""

    TOOL = "tool"
    SERVER = "server"
    GLOBAL = "global"


# At one level the strongest matching effect wins.
_STRENGTH = {Verdict.ALLOW: 0, Verdict.ASK: 1, Verdict.DENY: 2}
_EFFECT_WORDS = {Verdict.ALLOW: "Allowed by rule", Verdict.ASK: "Asks because of rule", Verdict.DENY: "Denied by rule"}
_RANK = {Level.TOOL: 0, Level.SERVER: 1, Level.GLOBAL: 2}


def _compile(pattern: str | None) -> re.Pattern[str] | None:
    # fnmatch.translate, not fnmatch.fnmatch: compiled once, and case-sensitive
    # on every platform (fnmatch.fnmatch folds case on Windows).
    return None if pattern is None else re.compile(fnmatch.translate(pattern))


@dataclass(frozen=True, slots=True)
class Rule:
    """One allow / ask / deny rule.

    A rule matches a call when every condition it has holds: the tool glob
    against the public tool name, the server glob against the server name,
    the tier among `tiers`, and each hint's resolved value. The tool glob
    ignores case and look-alike letters (`hintgate.hints.names.NameGlob`);
    a deny or ask rule also matches the name as its server spelled it, before
    invalid characters became `_`, so no spelling escapes it.

    Attributes:
        effect: what the rule does to a call it matches.
        tool: a glob over public tool names (`fnmatch`; case and look-alike letters folded).
        server: a glob over server names.
        tiers: the tiers it matches; empty matches any.
        hints: resolved hint values it requires.
        users: globs over the names of the people it applies to (`who`: a person's email...).
        groups: the groups it applies to; a rule naming users or groups applies to those people only,
            never to a caller the gateway knows no person for (no `identity` section, stdio).
        index: its position in the config list, part of its id.
        where: its key path in the config file (`policy.rules[2]`), for reasons.
        note: the operator's own words, added to the reason.
        stored: set through the API or dashboard (`confirm_rule`), not written in the config file.
        approvers: for an ask rule, who may answer its calls and whether a caller may answer their own
            (None: anyone, and the caller too; with people known, the caller never by default).
        confirm: for an ask rule, `first` (an approval counts for the session)
            or `always` (nothing waives the question); `never` on an allow rule.
        arguments: conditions on the call's arguments (`args: {path: glob}`, `hintgate.policy.argmatch`):
            each must hold; a rule with any never matches a call whose arguments are not known.
        level: tool, server or global (derived).
        id: `rule:<level>:<pattern>#<index>`, the decision's `source` (derived).
        reason: the sentence a decision by this rule gives (derived).
    """

    effect: Verdict
    tool: str | None = None
    server: str | None = None
    tiers: frozenset[Tier] = frozenset()
    hints: Mapping[Hint, bool] = field(default_factory=lambda: MappingProxyType({}))
    confirm: Confirm | None = None
    users: tuple[str, ...] = ()
    groups: frozenset[str] = frozenset()
    approvers: Approvers | None = None
    index: int = 0
    where: str | None = None
    note: str | None = None
    stored: bool = False
    arguments: tuple[ArgPattern, ...] = ()
    level: Level = field(init=False)
    id: str = field(init=False)
    reason: str = field(init=False, repr=False, compare=False)
    rank: int = field(init=False, repr=False, compare=False)
    strength: int = field(init=False, repr=False, compare=False)
    _tool_glob: NameGlob | None = field(init=False, repr=False, compare=False)
    _server_re: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    _hint_checks: tuple[tuple[Hint, bool], ...] = field(init=False, repr=False, compare=False)
    _user_res: tuple[re.Pattern[str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        level = Level.TOOL if self.tool is not None else Level.SERVER if self.server is not None else Level.GLOBAL
        pattern = {Level.TOOL: self.tool, Level.SERVER: self.server}.get(level) or ",".join(self._conditions()[1:])
        derived = {
            "level": level,
            "id": f"rule:{level}:{pattern}#{'stored' if self.stored else self.index}",
            # Built once: a decision by a rule then costs no string formatting.
            "reason": f"{_EFFECT_WORDS[self.effect]} {self.cite()}." + (f" {self.note}" if self.note else ""),
            "rank": _RANK[level],
            "strength": _STRENGTH[self.effect],
            "_tool_glob": None if self.tool is None else NameGlob(self.tool),
            "_server_re": _compile(self.server),
            "_hint_checks": tuple(self.hints.items()),
            # People's names compare without case: Alice@Example.com is alice@example.com.
            "_user_res": tuple(re.compile(fnmatch.translate(u.casefold())) for u in self.users),
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)

    def _conditions(self) -> list[str]:
        # Index 0 is the effect so that the global pattern can skip it.
        parts = [self.effect.value]
        if self.tool is not None:
            parts.append(f"tool={self.tool}")
        if self.server is not None:
            parts.append(f"server={self.server}")
        if self.tiers:
            parts.append("tier=" + "|".join(t.value for t in Tier if t in self.tiers))
        parts.extend(f"{h.value}={str(v).lower()}" for h, v in self.hints.items())
        parts.extend(f"args.{pattern.describe()}" for pattern in self.arguments)
        if self.users:
            parts.append("user=" + "|".join(self.users))
        if self.groups:
            parts.append("group=" + "|".join(sorted(self.groups)))
        if self.confirm is not None:
            parts.append(f"confirm={self.confirm.value}")
        if self.approvers is not None:
            parts.append("approvers=" + self.approvers.describe().replace(" ", ":").replace(":or:", "|"))
        return parts

    @property
    def names_people(self) -> bool:
        """Whether the rule applies to some people only (it has `user` or `group`)."""
        return bool(self.users or self.groups)

    def applies_to(self, who: Principal | None) -> bool:
        """Whether the rule applies to calls `who` makes (every caller, for a rule naming no one)."""
        if not self.users and not self.groups:
            return True
        if who is None:
            return False
        if self.groups & who.groups:
            return True
        name = who.name.casefold()
        return any(pattern.match(name) is not None for pattern in self._user_res)

    def describe(self) -> str:
        """The rule as a person reads it: `deny server=github tier=destructive`."""
        return " ".join(self._conditions())

    def cite(self) -> str:
        """The rule and where it is written: `deny tool=x (config policy.rules[2])`."""
        if self.stored:
            return f"{self.describe()} (set through the API or dashboard)"
        return f"{self.describe()} (config {self.where or f'rule #{self.index}'})"

    def matches(
        self,
        tool: str,
        server: str,
        tier: Tier,
        hints: Mapping[Hint, Resolved],
        spelled: str | None = None,
        who: Principal | None = None,
        arguments: Mapping[str, Any] | None = None,
    ) -> bool:
        """Whether the rule applies to a call of `tool` on `server` with these resolved hints, made by `who`.

        `spelled` is the name as the server spelled it (prefix joined, before
        sanitizing). Deny and ask rules match it too; an allow rule matches
        the public name only, so a name cannot reach an allow by its spelling.
        """
        # Cheapest checks first: this runs for every rule on every call.
        if self.tiers and tier not in self.tiers:
            return False
        if (self.users or self.groups) and not self.applies_to(who):
            return False
        for hint, value in self._hint_checks:
            if hints[hint].value is not value:
                return False
        if self._server_re is not None and self._server_re.match(server) is None:
            return False
        if self.arguments and not all(pattern.matches(arguments) for pattern in self.arguments):
            return False
        glob = self._tool_glob
        if glob is None:
            return True
        if spelled is not None and spelled != tool and self.effect is not Verdict.ALLOW:
            return glob.matches(tool, spelled)
        return glob.matches(tool)


# ------------------------------------------------------------------ parsing

_Path = tuple[str | int, ...]

_SECTION_KEYS = ("preferences", "rules", "approvers", "selfApproval")
TOP_KEYS: Mapping[str, str] = {
    **{spelling: row.attr for row in POLICY_SETTINGS if not row.group for spelling in row.spellings},
    **{key: key for key in _SECTION_KEYS},
}
PREFERENCE_KEYS: Mapping[str, str] = {
    spelling: row.attr for row in POLICY_SETTINGS if row.group == "preferences" for spelling in row.spellings
}
_BY_ATTR: Mapping[str, PolicySetting] = {row.attr: row for row in POLICY_SETTINGS}
# Choices whose settings attribute holds an enum rather than the string.
_CHOICE_ENUMS: Mapping[str, type[enum.StrEnum]] = {"taint": Taint}
_MODES: Mapping[str, Mode] = {
    **{m.value: m for m in Mode},
    "acceptEdits": Mode.ACCEPT_EDITS,
    "accept_edits": Mode.ACCEPT_EDITS,
    "readOnly": Mode.READ_ONLY,
    "read_only": Mode.READ_ONLY,
}
_TIERS: Mapping[str, Tier] = {
    **{t.value: t for t in Tier},
    "additive": Tier.ADDITIVE,
    "additive_write": Tier.ADDITIVE,
    "read_only": Tier.READ_ONLY,
    "readOnly": Tier.READ_ONLY,
}
_HINT_SPELLINGS: Mapping[str, Hint] = {
    **{h.value: h for h in Hint},
    **{h.attr: h for h in Hint},
    **{f"{h.attr}_hint": h for h in Hint},
}
_RULE_KEYS = (
    "tool",
    "server",
    "tier",
    "reason",
    "confirm",
    "user",
    "group",
    "approvers",
    "selfApproval",
    "args",
    "when",
)
_EFFECTS = tuple(v.value for v in Verdict)
_CONFIRMS: Mapping[str, Confirm] = {c.value: c for c in Confirm}


def confirm_rule(tool: str, confirm: Confirm) -> Rule:
    """The tool rule a `confirm` set through the API or dashboard stands for: ask (first, always) or allow (never)."""
    return Rule(Verdict(_CONFIRM_EFFECT[confirm]), tool=tool, confirm=confirm, stored=True)


def _got(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, int | float):
        return repr(value)
    return type(value).__name__


def _closest(word: str, choices: Collection[str]) -> str:
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not found:
        return ""
    # Suggest what the value is, not the alias it happened to be nearest (readonly -> read-only).
    canonical = choices[found[0]] if isinstance(choices, Mapping) else found[0]
    return f'; did you mean "{getattr(canonical, "value", canonical)}"?'


class _Problem(Exception):
    """One problem of a policy section, at a key path."""

    def __init__(self, path: _Path, message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


class _Parser:
    """One pass over a `policy` section, collecting every problem (each setting and rule checked on its own)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.problems: list[_Problem] = []

    def fail(self, path: _Path, message: str) -> NoReturn:
        raise _Problem(path, message)

    def mapping(self, value: Any, path: _Path, what: str = "a mapping") -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(path, f"expected {what}, got {_got(value)}")
        for key in value:
            if not isinstance(key, str):
                self.fail((*path, str(key)), f"keys must be strings, got {_got(key)}")
        return value

    def spellings(self, m: Mapping[str, Any], path: _Path, known: Mapping[str, str]) -> dict[str, tuple[str, Any]]:
        """Map each key to its setting, rejecting unknown keys and two spellings of one setting."""
        out: dict[str, tuple[str, Any]] = {}
        for key, value in m.items():
            if key.startswith("x-"):
                continue  # extension keys, as elsewhere in the config file
            setting = known.get(key)
            if setting is None:
                self.problems.append(_Problem((*path, key), f'unknown key "{key}"{_closest(key, list(known))}'))
                continue
            if setting in out:
                self.fail((*path, key), f'"{key}" repeats "{out[setting][0]}"; give one')
            out[setting] = (key, value)
        return out

    def boolean(self, value: Any, path: _Path) -> bool:
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {_got(value)}")
        return value

    def seconds(self, value: Any, path: _Path, *, zero: bool, maximum: float) -> float:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not math.isfinite(value) or value < 0 or (value == 0 and not zero):
            bound = "0 or more" if zero else "greater than 0"
            self.fail(path, f"expected a number of seconds {bound}, got {_got(value)}")
        if value > maximum:
            self.fail(path, f"expected a number of seconds up to {maximum:g}, got {_got(value)}")
        return float(value)

    def choice(self, value: Any, path: _Path, choices: Mapping[str, Any], what: str, shown: Collection[str]) -> Any:
        if not isinstance(value, str) or value not in choices:
            hint = _closest(value, choices) if isinstance(value, str) else ""
            self.fail(path, f"expected a {what}: one of {', '.join(shown)}; got {_got(value)}{hint}")
        return choices[value]

    def glob(self, value: Any, path: _Path) -> str:
        if not isinstance(value, str) or not value:
            self.fail(path, f"expected a non-empty glob pattern (a string), got {_got(value)}")
        return value

    def settings(self, data: Any, path: _Path) -> tuple[PolicySettings, tuple[Rule, ...]]:
        given = self.spellings(self.mapping(data, path), path, TOP_KEYS)
        values: dict[str, Any] = {}
        rules: tuple[Rule, ...] = ()
        for setting, (key, value) in given.items():
            here = (*path, key)
            try:
                if setting == "preferences":
                    prefs = self.spellings(self.mapping(value, here), here, PREFERENCE_KEYS)
                    for name, (pkey, pvalue) in prefs.items():
                        try:
                            values[name] = self.setting(_BY_ATTR[name], pvalue, (*here, pkey))
                        except _Problem as problem:
                            self.problems.append(problem)
                elif setting == "rules":
                    rules = self.rules(value, here)
                elif setting == "approvers":
                    values["approvers"] = self.approvers(value, here, values.get("approvers") or Approvers())
                elif setting == "selfApproval":
                    approvers = values.get("approvers") or Approvers()
                    values["approvers"] = dataclasses.replace(approvers, self_approval=self.boolean(value, here))
                else:
                    values[setting] = self.setting(_BY_ATTR[setting], value, here)
            except _Problem as problem:
                self.problems.append(problem)
        return PolicySettings(**values), rules

    def setting(self, row: PolicySetting, value: Any, path: _Path) -> Any:
        """One setting's value, checked against its kind and bounds."""
        if row.kind == "bool":
            return self.boolean(value, path)
        if row.kind == "seconds":
            return self.seconds(value, path, zero=row.zero, maximum=row.maximum)
        if row.booleans is not None and isinstance(value, bool):
            value = row.booleans[value]
        accepted = _MODES if row.kind == "mode" else {c: c for c in row.choices}
        found = self.choice(value, path, accepted, row.noun, row.choices)
        kind = _CHOICE_ENUMS.get(row.attr)
        return found if kind is None else kind(found)

    def rules(self, value: Any, path: _Path) -> tuple[Rule, ...]:
        if not isinstance(value, list | tuple):
            self.fail(path, f"expected a list of rules, got {_got(value)}")
        rules: list[Rule] = []
        for i, item in enumerate(value):
            try:
                rules.append(self.rule(item, (*path, i), i))
            except _Problem as problem:
                self.problems.append(problem)
        return tuple(rules)

    def rule(self, value: Any, path: _Path, index: int) -> Rule:
        effects = ", ".join(_EFFECTS)
        m = self.mapping(value, path, f"a rule: a mapping with one of {effects}")
        for key in m:
            if key not in _EFFECTS:
                self.fail((*path, key), f'unknown key "{key}"; a rule is one of {effects}{_closest(key, _EFFECTS)}')
        if len(m) != 1:
            if not m:
                self.fail(path, f"a rule needs one of {effects}, got an empty mapping")
            self.fail(path, f"a rule has one effect, got {' and '.join(json.dumps(k) for k in m)}")
        key, spec = next(iter(m.items()))
        here = (*path, key)
        conditions = self.mapping(spec, here, "a mapping of conditions (tool, server, tier, hints)")
        known = {**{k: k for k in _RULE_KEYS}, **{k: k for k in _HINT_SPELLINGS}}
        given = self.spellings(conditions, here, known)
        hints: dict[Hint, bool] = {}
        spelled: dict[Hint, str] = {}
        fields: dict[str, Any] = {}
        for name, (ckey, cvalue) in given.items():
            at = (*here, ckey)
            if name in ("tool", "server"):
                fields[name] = self.glob(cvalue, at)
            elif name == "tier":
                fields["tiers"] = self.tiers(cvalue, at)
            elif name == "user":
                fields["users"] = self.names(cvalue, at, "a person's name (or a glob)")
            elif name == "group":
                fields["groups"] = frozenset(self.names(cvalue, at, "a group's name"))
            elif name in ("approvers", "selfApproval"):
                if key != Verdict.ASK:
                    self.fail(at, f"{ckey} goes in an ask rule: only a call that asks has someone to answer it")
                approvers = fields.get("approvers") or Approvers()
                if name == "selfApproval":
                    approvers = dataclasses.replace(approvers, self_approval=self.boolean(cvalue, at))
                else:
                    approvers = self.approvers(cvalue, at, approvers)
                fields["approvers"] = approvers
            elif name in ("args", "when"):
                fields["arguments"] = (*fields.get("arguments", ()), *self.arguments(cvalue, at, name))
            elif name == "reason":
                if not isinstance(cvalue, str):
                    self.fail(at, f"expected a sentence (a string), got {_got(cvalue)}")
                fields["note"] = cvalue
            elif name == "confirm":
                fields["confirm"] = confirm = self.choice(cvalue, at, _CONFIRMS, "confirm value", _CONFIRMS)
                if _CONFIRM_EFFECT[confirm] != key:
                    self.fail(at, f"confirm: {confirm.value} goes in an {_CONFIRM_EFFECT[confirm]} rule, not {key}")
            else:
                hint = _HINT_SPELLINGS[name]
                if hint in spelled:
                    self.fail(at, f'"{ckey}" repeats "{spelled[hint]}"; give one')
                hints[hint], spelled[hint] = self.boolean(cvalue, at), ckey
        if not (fields.keys() - {"note", "approvers"}) and not hints:
            self.fail(here, 'a rule needs a tool, server, tier or hint to match (tool: "*" matches every tool)')
        if "confirm" in fields and ("users" in fields or "groups" in fields):
            self.fail(here, "confirm applies to everyone: write it in a rule without user or group")
        return Rule(Verdict(key), **fields, hints=MappingProxyType(hints), index=index, where=format_path(path))

    def arguments(self, value: Any, path: _Path, key: str) -> tuple[ArgPattern, ...]:
        """`args: {path: glob or [globs]}`, or the same under `when: {args: ...}`."""
        if key == "when":
            when = self.mapping(value, path, "a mapping with args")
            for wkey in when:
                if wkey != "args":
                    self.fail((*path, wkey), f'unknown key "{wkey}"; when holds args (conditions on the arguments)')
            if "args" not in when:
                self.fail(path, "expected args: a mapping of paths in the arguments to globs")
            return self.arguments(when["args"], (*path, "args"), "args")
        given = self.mapping(value, path, "a mapping of paths in the arguments to globs")
        if not given:
            self.fail(path, "expected at least one path: glob")
        patterns = []
        for apath, globs in given.items():
            at = (*path, apath)
            problem = path_problem(apath) if isinstance(apath, str) else "expected a path (a string)"
            if problem is not None:
                self.fail(at, problem)
            items = list(globs) if isinstance(globs, list | tuple) else [globs]
            if not items or not all(isinstance(g, str | int | float | bool) for g in items):
                self.fail(at, f"expected a glob (a string) or a list of globs, got {_got(globs)}")
            texts = tuple(g if isinstance(g, str) else json.dumps(g) for g in items)
            patterns.append(ArgPattern(apath, texts))
        return tuple(patterns)

    def approvers(self, value: Any, path: _Path, given: Approvers) -> Approvers:
        """`given` with the people an `approvers` mapping names (a user and/or a group)."""
        who = self.mapping(value, path, "a mapping with user and/or group")
        for wkey in who:
            if wkey not in ("user", "group"):
                self.fail((*path, wkey), f'unknown key "{wkey}"; approvers are a user and/or a group')
        if not who:
            self.fail(path, "expected a user and/or a group")
        users = self.names(who["user"], (*path, "user"), "a person's name (or a glob)") if "user" in who else ()
        groups = frozenset(self.names(who["group"], (*path, "group"), "a group's name")) if "group" in who else None
        return dataclasses.replace(given, users=users, groups=groups or frozenset())

    def names(self, value: Any, path: _Path, what: str) -> tuple[str, ...]:
        """One name or a non-empty list of names (a rule's `user` or `group`)."""
        items = list(value) if isinstance(value, list | tuple) else [value]
        if not items:
            self.fail(path, f"expected {what} or a non-empty list of them")
        for i, item in enumerate(items):
            if not isinstance(item, str) or not item.strip():
                at = (*path, i) if isinstance(value, list | tuple) else path
                self.fail(at, f"expected {what}, got {_got(item)}")
        return tuple(item.strip() for item in items)

    def tiers(self, value: Any, path: _Path) -> frozenset[Tier]:
        shown = [t.value for t in Tier]
        if isinstance(value, list | tuple):
            if not value:
                self.fail(path, f"expected a tier or a non-empty list of tiers ({', '.join(shown)})")
            return frozenset(self.choice(v, (*path, i), _TIERS, "tier", shown) for i, v in enumerate(value))
        return frozenset({self.choice(value, path, _TIERS, "tier", shown)})


def parse_policy(
    data: Mapping[str, Any] | None, *, source: str = "<config>", path: str = "policy"
) -> tuple[PolicySettings, tuple[Rule, ...]]:
    """Read a config file's `policy` section.

    Multiword keys may be written camelCase or snake_case; keys starting with
    `x-` are ignored.

    Args:
        data: the value of the `policy` key; `None` when the file has none.
        source: the file's name, for errors.
        path: the section's key path in the file, the prefix of error paths.

    Raises:
        ConfigError: naming the first problem's key path (`policy.rules[2].deny.tier`)
            and what was expected; `others` holds the rest, as (path, message).
    """
    if data is None:
        return PolicySettings(), ()
    parser = _Parser(source)
    try:
        parsed = parser.settings(data, (path,) if path else ())
    except _Problem as problem:
        parser.problems.append(problem)
    if parser.problems:
        first, *rest = parser.problems
        raise ConfigError(
            first.message,
            file=source,
            path=format_path(first.path) or None,
            others=tuple((format_path(p.path) or None, p.message) for p in rest),
        )
    return parsed
