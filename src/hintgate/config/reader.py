"""Reading a config file: the validator behind `hintgate.config.loading.parse_config`.

It walks the parsed file section by section, collects every problem with its
line, column and key path, and builds the values `hintgate.config.model` defines.
Kept apart from those values so that the reference of what a config holds
stays short. The sources' sections are read by their type's validator
(`hintgate.config.mcp_entry`, `.openapi_entry`, `.python_entry`, named in
`hintgate.config.types.SOURCE_TYPES`) with the helpers of `Reader`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from hintgate.config.model import (
    PREFIX_RE,
    SIGNING_ALGORITHMS,
    GatewayConfig,
    IdentityConfig,
    ListingLimits,
    SourceConfig,
    Timeouts,
    ToolOverride,
    Trust,
    closest,
    freeze,
)
from hintgate.config.yamlpos import Key, Mark, Positions, format_path
from hintgate.discovery.served import SearchMode, SearchSettings
from hintgate.discovery.views import BUILTIN_VIEWS, VIEW_NAME, View
from hintgate.errors import ConfigError
from hintgate.hints.annotations import Hint, Tier
from hintgate.hints.inference import PROFILES
from hintgate.policy.roles import People
from hintgate.policy.rules import PolicySettings, Rule, parse_policy

if TYPE_CHECKING:
    from hintgate.config.types import SourceType


def _policy_path(dotted: str | None, fallback: tuple[Key, ...]) -> tuple[Key, ...]:
    """`policy.rules[2].deny.tier` → ("policy", "rules", 2, "deny", "tier"), for locating the line."""
    if not dotted:
        return fallback
    keys: list[Key] = []
    for part in dotted.split("."):
        name, *indexes = part.split("[")
        if name:
            keys.append(name)
        keys.extend(int(i.rstrip("]")) for i in indexes if i.rstrip("]").isdigit())
    return tuple(keys)


HINT_SPELLINGS: Mapping[str, Hint] = {
    **{hint.value: hint for hint in Hint},
    **{hint.attr: hint for hint in Hint},
}
"""How an override may name a hint (`readOnlyHint` or `read_only`); an override also takes `title`."""

TIMEOUT_KEYS: Mapping[str, str] = {
    "call": "call",
    "startup": "startup",
    "list": "list",
    "sessionIdle": "session_idle",
    "sessionFirstRequest": "session_first_request",
}
"""The `timeouts` section's keys, each with the `Timeouts` field it sets."""

LIMIT_KEYS: Mapping[str, str] = {"toolsPerServer": "tools_per_server", "textLength": "text_length"}
"""The `limits` section's keys, each with the `ListingLimits` field it sets."""

SECTION_KEYS: Mapping[str, tuple[str, ...]] = {
    "inference": ("profile",),
    "timeouts": tuple(TIMEOUT_KEYS),
    "limits": tuple(LIMIT_KEYS),
    "env": ("allow",),
    "integrity": ("onChange", "onResultFinding", "pins", "scanDeadline"),
    "identity": (
        "issuer",
        "audience",
        "userClaim",
        "groupsClaim",
        "algorithms",
        "clockSkew",
        "scopes",
        "dashboardClient",
        "requireTokenType",
        "clients",
        "admins",
        "auditors",
        "personClaim",
        "assignedClaims",
    ),
    "metrics": ("byUser",),
    "search": ("mode", "alwaysList"),
}
"""The keys each settings section takes (`views` holds views by name: `VIEW_KEYS`); the docs test reads them."""

VIEW_KEYS = ("tiers", "servers", "tools", "tags", "trust")
"""The keys of one view under `views`."""

PEOPLE_KEYS = ("user", "group")
"""The keys of `{user: ..., group: ...}`: `identity.admins` and `identity.auditors`."""

# Top-level keys other clients keep in the same file: VS Code's prompted
# inputs, Claude Desktop's app settings.
FOREIGN_TOP_KEYS = frozenset({"inputs", "globalShortcut", "preferences"})


def located_error(file: str, message: str, path: str | None = None) -> ConfigError:
    """A `ConfigError` whose message is already located (`FILE:LINE:COL: ...`)."""
    err = ConfigError(message)
    err.file, err.path = file, path
    return err


def shown(value: Any, *, secret: bool = False) -> str:
    """How a message names a wrong value: the value itself unless it might be a secret."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number" if secret else repr(value)
    if isinstance(value, str):
        if secret:
            return "a string"
        return json.dumps(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return type(value).__name__


class Reader:
    """One validation pass over a decoded file, collecting every problem."""

    def __init__(
        self,
        source: str,
        positions: Positions,
        environ: Mapping[str, str],
        base: Path | None,
        types: Sequence[SourceType],
    ):
        self.source = source
        self.types = types  # the source sections this reader knows (hintgate.config.types)
        self.positions = positions
        self.environ = environ
        self.base = base
        # The VS Code variables that have a meaning outside VS Code.
        self.predefined = {"userHome": str(Path.home())}
        if base is not None:
            folder = base.parent if base.name in {".vscode", ".cursor"} else base
            self.predefined["workspaceFolder"] = str(folder)
        self.problems: list[tuple[tuple[float, float], str, tuple[Key, ...]]] = []
        self.from_environment: list[str] = []  # every value ${VAR} took from the environment, in order
        self.notes: list[tuple[tuple[float, float], str]] = []
        self.profile = "conservative"
        self.timeouts = Timeouts()
        self.limits = ListingLimits()
        self.env_allow: tuple[str, ...] = ()
        self.on_change = "ask"
        self.on_result_finding = "redact"
        self.scan_deadline: float = GatewayConfig.scan_deadline
        self.pins_file: Path | None = None
        self.sources: dict[str, SourceConfig] = {}
        self.sections: dict[str, str] = {}  # source name -> the config key of its section
        self.prefixes: dict[str, str] = {}  # non-empty prefix -> the source that has it
        self.policy: tuple[PolicySettings, tuple[Rule, ...]] = (PolicySettings(), ())
        self.identity: IdentityConfig | None = None
        self.per_user: list[tuple[Key, ...]] = []  # where `oauth.perUser: true` was given
        self.metrics_by_user = False
        self.search = SearchSettings()
        self.views: dict[str, View] = {}

    # -- reporting

    def _line(
        self, path: tuple[Key, ...], message: str, key: bool, at: Mark | None = None
    ) -> tuple[tuple[float, float], str]:
        mark = at or self.positions.find(path, key=key)
        where = f"{self.source}:{mark[0]}:{mark[1]}" if mark else self.source
        dotted = format_path(path)
        text = f"{where}: {dotted}: {message}" if dotted else f"{where}: {message}"
        return (mark or (math.inf, math.inf)), text

    def error(self, path: tuple[Key, ...], message: str, *, key: bool = False, at: Mark | None = None) -> None:
        sort, text = self._line(path, message, key, at)
        self.problems.append((sort, text, path))

    def warn(self, path: tuple[Key, ...], message: str, *, key: bool = False) -> None:
        self.notes.append(self._line(path, message, key))

    # -- scalar readers: each returns None after reporting a problem

    def mapping(self, value: Any, path: tuple[Key, ...], what: str = "a mapping") -> Mapping[str, Any] | None:
        if not isinstance(value, Mapping):
            self.error(path, f"expected {what}, got {shown(value)}")
            return None
        good: dict[str, Any] = {}
        for k, v in value.items():
            if isinstance(k, str):
                good[k] = v
            else:
                self.error((*path, str(k)), f"keys must be strings, got {shown(k)}", key=True)
        return good

    def keys(self, m: Mapping[str, Any], path: tuple[Key, ...], allowed: Collection[str]) -> None:
        for k in m:
            if k not in allowed and not k.startswith("x-"):
                self.error((*path, k), f'unknown key "{k}"{closest(k, allowed)}', key=True)

    def prefix(self, name: str, value: Any, path: tuple[Key, ...] | None) -> str:
        """A source's tool-name prefix: the one given, else its name with invalid characters made `_`."""
        default = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
        if path is None or (given := self.string(value, path)) is None:
            return default
        if PREFIX_RE.fullmatch(given):
            return given
        self.error(path, f'expected letters, digits, "_", "-" and "." only (MCP tool names), got {json.dumps(given)}')
        return default

    def string(self, value: Any, path: tuple[Key, ...], *, secret: bool = False, empty: bool = True) -> str | None:
        if not isinstance(value, str):
            quote = "; quote it" if isinstance(value, int | float) and not isinstance(value, bool) else ""
            self.error(path, f"expected a string, got {shown(value, secret=secret)}{quote}")
            return None
        text = self.expand(value, path)
        if text is not None and not empty and not text:
            self.error(path, "must not be empty")
            return None
        return text

    def boolean(self, value: Any, path: tuple[Key, ...]) -> bool | None:
        if not isinstance(value, bool):
            self.error(path, f"expected true or false, got {shown(value)}")
            return None
        return value

    def seconds(self, value: Any, path: tuple[Key, ...]) -> float | None:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not math.isfinite(value) or value <= 0:
            self.error(path, f"expected a number of seconds greater than 0, got {shown(value)}")
            return None
        return float(value)

    def strings(self, value: Any, path: tuple[Key, ...]) -> tuple[str, ...] | None:
        if not isinstance(value, list):
            self.error(path, f"expected a list of strings, got {shown(value)}")
            return None
        items = [self.string(item, (*path, i)) for i, item in enumerate(value)]
        return None if any(i is None for i in items) else tuple(i for i in items if i is not None)

    def string_map(self, value: Any, path: tuple[Key, ...]) -> dict[str, str] | None:
        """A mapping of names to string values; values may be secrets, so never echoed."""
        m = self.mapping(value, path, "a mapping of names to strings")
        if m is None:
            return None
        out: dict[str, str] = {}
        for k, v in m.items():
            if not k or "=" in k or "\0" in k:
                self.error((*path, k), "is not a usable name", key=True)
            text = self.string(v, (*path, k), secret=True)
            if text is not None:
                out[k] = text
        return out if len(out) == len(m) else None

    def expand(self, text: str, path: tuple[Key, ...]) -> str | None:
        """Replace `${NAME}`, `${NAME:-default}`, `${env:NAME}`; `$$` is a literal dollar."""
        if "$" not in text:
            return text
        failed = False

        def one(match: re.Match[str]) -> str:
            nonlocal failed
            inner = match.group(1)
            if match.group(0) == "$$":
                return "$"
            if inner is None:
                failed = True
                self.error(path, 'unterminated "${" (write "$$" for a literal dollar)')
                return ""
            ref = _REF_RE.fullmatch(inner)
            if ref is None:
                failed = True
                why = (
                    "is a VS Code input prompt, which hintgate cannot show"
                    if inner.startswith("input:")
                    else "is not a variable reference"
                )
                self.error(path, f'"${{{inner}}}" {why}; write "${{NAME}}" or "${{NAME:-default}}"')
                return ""
            env_prefix, name, default = ref.groups()
            found = self.predefined.get(name) if not env_prefix else None
            if found is None:
                found = self.environ.get(name)
                if found:
                    self.from_environment.append(found)
            if default is not None and not found:
                return str(default)
            if found is None:
                failed = True
                self.error(path, f"environment variable {name} is not set (or write ${{{name}:-default}})")
                return ""
            return found

        out = _VAR_RE.sub(one, text)
        return None if failed else out

    # -- the file

    def read(self, data: Any) -> GatewayConfig:
        for path, mark, first in self.positions.duplicates:
            self.error(path, f"duplicate key (first given on line {first[0]})", at=mark)
        if data is None:
            self.error((), "the file is empty; expected a mapping with an mcpServers key")
        elif (top := self.mapping(data, (), "a mapping with an mcpServers key at the top")) is not None:
            self.top(top)
            if "identity" not in top:
                for path in self.per_user:
                    self.error(
                        path,
                        "a login per person needs people: add an identity section (issuer, audience), "
                        "or remove perUser to share one login",
                    )
                if self.metrics_by_user:
                    self.warn(
                        ("metrics", "byUser"),
                        "no identity section, so no call has a person: the user label is empty",
                        key=True,
                    )
                self.people_without_identity()
            for name, view in self.views.items():
                for server in sorted(view.servers or ()):
                    if server not in self.sources:
                        hint = closest(server, self.sources)
                        self.warn(("views", name, "servers"), f'no source is named "{server}"{hint}')
        if self.problems:
            self.problems.sort(key=lambda p: p[0])
            lines = "\n".join(text for _, text, _ in self.problems)
            raise located_error(self.source, lines, format_path(self.problems[0][2]) or None)
        return GatewayConfig(
            sources=freeze(self.sources),
            inference_profile=self.profile,
            timeouts=self.timeouts,
            limits=self.limits,
            env_allow=self.env_allow,
            on_change=self.on_change,
            on_result_finding=self.on_result_finding,
            scan_deadline=self.scan_deadline,
            pins_file=self.pins_file,
            policy=self.policy,
            identity=self.identity,
            metrics_by_user=self.metrics_by_user,
            search=self.search,
            views=freeze(self.views),
            warnings=tuple(text for _, text in sorted(self.notes, key=lambda n: n[0])),
        )

    def people_without_identity(self) -> None:
        """Warn about policy that names people, in a file without an `identity` section: it does nothing.

        Without an identity provider no request has a person: a rule for some users or groups never
        applies, and approvers are not asked who answers (whoever reaches the gateway does).
        """
        settings, rules = self.policy
        fix = "add an identity section (issuer, audience) so that calls have people"
        for rule in rules:
            at: tuple[Key, ...] = ("policy", "rules", rule.index, rule.effect.value)
            if rule.users or rule.groups:
                self.warn(
                    (*at, "group" if rule.groups else "user"),
                    f"this {rule.effect.value} rule names people, but without an identity section no call has "
                    f"a person: it never applies; {fix}, or remove user and group",
                    key=True,
                )
            elif rule.approvers is not None:
                self.warn(
                    (*at, "approvers" if rule.approvers.users or rule.approvers.groups else "selfApproval"),
                    f"approvers name who answers, but without an identity section there are no people: whoever "
                    f"reaches the dashboard, the REST API or the client answers; {fix}",
                    key=True,
                )
        if settings.approvers is not None:
            named = settings.approvers.users or settings.approvers.groups
            self.warn(
                ("policy", "approvers" if named else "selfApproval"),
                "names who answers, but without an identity section there are no people: whoever reaches the "
                f"dashboard, the REST API or the client answers; {fix}",
                key=True,
            )

    def top(self, top: Mapping[str, Any]) -> None:
        sections: dict[str, Callable[[Reader, Any, tuple[Key, ...]], None]] = dict(SETTINGS_SECTIONS)
        for row in self.types:
            for spelling in (row.key, *row.aliases):
                sections[spelling] = row.read
                if spelling != row.key and spelling in top and row.key in top:
                    self.error((spelling,), f'both "{row.key}" and "{spelling}" are given; use one', key=True)
        sections["policy"] = Reader.read_policy
        for k, v in top.items():
            if k in sections or k in FOREIGN_TOP_KEYS or k.startswith("x-") or k == "$schema":
                continue
            hint = closest(k, sections)
            if isinstance(v, Mapping) and ("command" in v or "url" in v):
                hint = "; servers go under mcpServers"
            self.error((k,), f'unknown key "{k}"{hint}', key=True)
        # Sections run in this order, not file order: sources read the default timeouts,
        # and a name or prefix given twice is reported at the entry of the later section.
        aliases = {alias: row.key for row in self.types for alias in row.aliases}
        for name, section in sections.items():
            if name in top and aliases.get(name) not in top:
                section(self, top[name], (name,))

    def add_source(self, config: SourceConfig, path: tuple[Key, ...], prefix_path: tuple[Key, ...]) -> None:
        """Keep a valid source entry; its name must be unique across sections and its prefix across sources."""
        if config.name in self.sources:
            self.error(
                path,
                f'the name "{config.name}" is also used in {self.sections[config.name]}; source names must be unique',
                key=True,
            )
            return
        if config.prefix and (owner := self.prefixes.get(config.prefix)) is not None:
            noun = next(t.noun for t in self.types if t.kind == self.sources[owner].kind)
            self.error(
                prefix_path,
                f'prefix "{config.prefix}" is also the prefix of {noun} "{owner}"; their tool names would collide',
            )
        self.sources[config.name] = config
        self.sections[config.name] = next(t.key for t in self.types if t.kind == config.kind)
        if config.prefix:
            self.prefixes.setdefault(config.prefix, config.name)

    def read_policy(self, value: Any, path: tuple[Key, ...]) -> None:
        # The policy section has its own reader (policy.rules); every problem it found is reported here.
        try:
            self.policy = parse_policy(value, source=self.source, path=".".join(str(p) for p in path))
        except ConfigError as exc:
            for where, message in ((exc.path, exc.message), *exc.others):
                self.error(_policy_path(where, path), message)

    def read_inference(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["inference"])
        if "profile" in m and (name := self.string(m["profile"], (*path, "profile"))) is not None:
            if name not in PROFILES:
                choices = " or ".join(json.dumps(p) for p in PROFILES)
                self.error((*path, "profile"), f"expected {choices}, got {json.dumps(name)}")
            else:
                self.profile = name

    def read_timeouts(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["timeouts"])
        got = {attr: self.seconds(m[key], (*path, key)) for key, attr in TIMEOUT_KEYS.items() if key in m}
        self.timeouts = Timeouts(**{k: v for k, v in got.items() if v is not None})

    def read_limits(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["limits"])
        got: dict[str, int] = {}
        for key, attr in LIMIT_KEYS.items():
            if key not in m:
                continue
            given = m[key]
            if isinstance(given, bool) or not isinstance(given, int) or given < 1:
                self.error((*path, key), f"expected a whole number of 1 or more, got {json.dumps(given)}")
            else:
                got[attr] = given
        self.limits = ListingLimits(**got)

    def read_env(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["env"])
        if "allow" in m and (names := self.strings(m["allow"], (*path, "allow"))) is not None:
            for i, n in enumerate(names):
                if not n or "=" in n:
                    self.error((*path, "allow", i), f"expected a variable name, got {json.dumps(n)}")
            self.env_allow = names

    def read_integrity(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["integrity"])
        if "scanDeadline" in m and (deadline := self.seconds(m["scanDeadline"], (*path, "scanDeadline"))) is not None:
            self.scan_deadline = deadline
        act = self.string(m["onResultFinding"], (*path, "onResultFinding")) if "onResultFinding" in m else None
        if act is not None:
            if act not in ("mark", "redact", "block"):
                self.error((*path, "onResultFinding"), f'expected "mark", "redact" or "block", got {json.dumps(act)}')
            else:
                self.on_result_finding = act
        if "onChange" in m and (how := self.string(m["onChange"], (*path, "onChange"))) is not None:
            if how not in ("ask", "hide"):
                self.error((*path, "onChange"), f'expected "ask" or "hide", got {json.dumps(how)}')
            else:
                self.on_change = how
        if "pins" in m and (file := self.string(m["pins"], (*path, "pins"), empty=False)) is not None:
            # A relative path means relative to the config file.
            self.pins_file = Path(file).expanduser() if self.base is None else self.base / Path(file).expanduser()

    def read_metrics(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["metrics"])
        if "byUser" in m and (flag := self.boolean(m["byUser"], (*path, "byUser"))) is not None:
            self.metrics_by_user = flag

    def read_search(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["search"])
        mode = SearchMode.AUTO
        if "mode" in m and (given := self.string(m["mode"], (*path, "mode"))) is not None:
            if given in {m.value for m in SearchMode}:
                mode = SearchMode(given)
            else:
                choices = ", ".join(json.dumps(v.value) for v in SearchMode)
                self.error((*path, "mode"), f"expected one of {choices}, got {json.dumps(given)}")
        always: tuple[str, ...] = ()
        if "alwaysList" in m and (names := self.strings(m["alwaysList"], (*path, "alwaysList"))) is not None:
            always = names
            if mode is not SearchMode.ONLY:
                self.warn((*path, "alwaysList"), f'read only when mode is "only" (it is "{mode.value}")', key=True)
        self.search = SearchSettings(mode=mode, always_list=always)

    def read_views(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path, "a mapping of view names to views")
        if m is None:
            return
        for name, spec in m.items():
            here = (*path, name)
            if name in BUILTIN_VIEWS:
                self.error(here, f'"{name}" is a built-in view; give yours another name', key=True)
                continue
            if not VIEW_NAME.fullmatch(name):
                self.error(
                    here,
                    'a view name is one URL path segment: letters, digits, "_", "." and "-", '
                    "at most 64 characters, starting with a letter or digit",
                    key=True,
                )
                continue
            view = self.view(name, spec, here)
            if view is not None:
                self.views[name] = view

    def view(self, name: str, spec: Any, path: tuple[Key, ...]) -> View | None:
        m = self.mapping(spec, path, "a view: a mapping of tiers, servers, tools, tags, trust")
        if m is None:
            return None
        before = len(self.problems)
        self.keys(m, path, VIEW_KEYS)
        got: dict[str, tuple[str, ...]] = {}
        for key in VIEW_KEYS:
            if key in m and (items := self.strings(m[key], (*path, key))) is not None:
                got[key] = items
        for key, kind in (("tiers", Tier), ("trust", Trust)):
            allowed = [member.value for member in kind]
            for i, item in enumerate(got.get(key, ())):
                if item not in allowed:
                    expected = ", ".join(json.dumps(a) for a in allowed)
                    self.error((*path, key, i), f"expected one of {expected}, got {json.dumps(item)}")
        if len(self.problems) > before:
            return None
        return View(
            name,
            tiers=frozenset(Tier(t) for t in got["tiers"]) if "tiers" in got else None,
            servers=frozenset(got["servers"]) if "servers" in got else None,
            tools=got.get("tools"),
            tags=frozenset(got["tags"]) if "tags" in got else None,
            trust=frozenset(Trust(t) for t in got["trust"]) if "trust" in got else None,
        )

    def read_identity(self, value: Any, path: tuple[Key, ...]) -> None:
        m = self.mapping(value, path)
        if m is None:
            return
        self.keys(m, path, SECTION_KEYS["identity"])
        for required in ("issuer", "audience"):
            if required not in m:
                self.error(path, f"{required} is required (the {_IDENTITY_NEEDS[required]})")
        issuer = self.string(m["issuer"], (*path, "issuer"), empty=False) if "issuer" in m else None
        if issuer is not None and (why := _issuer_problem(issuer)) is not None:
            self.error((*path, "issuer"), why)
            issuer = None
        audience = self.string(m["audience"], (*path, "audience"), empty=False) if "audience" in m else None
        got: dict[str, Any] = {}
        if "userClaim" in m:
            here = (*path, "userClaim")
            given = m["userClaim"]
            claims = self.strings([given] if isinstance(given, str) else given, here)
            if claims is not None and claims and all(claims):
                got["user_claims"] = claims
            elif claims is not None:
                self.error(here, "expected a claim name or a non-empty list of them")
        if "groupsClaim" in m and (claim := self.string(m["groupsClaim"], (*path, "groupsClaim"), empty=False)):
            got["groups_claim"] = claim
        if "algorithms" in m and (names := self.strings(m["algorithms"], (*path, "algorithms"))) is not None:
            for i, name in enumerate(names):
                if name not in SIGNING_ALGORITHMS:
                    why = (
                        "proves nothing"
                        if name.lower() == "none"
                        else "is a shared-secret algorithm: the issuer's public key would sign tokens"
                        if name.upper().startswith("HS")
                        else "is not a JWT signature algorithm"
                    )
                    self.error(
                        (*path, "algorithms", i),
                        f"{json.dumps(name)} {why}; expected one of {', '.join(SIGNING_ALGORITHMS)}",
                    )
            if not names:
                self.error((*path, "algorithms"), "expected at least one algorithm")
            got["algorithms"] = names
        if "clockSkew" in m:
            skew = m["clockSkew"]
            ok = isinstance(skew, int | float) and not isinstance(skew, bool) and math.isfinite(skew)
            if not ok or not 0 <= skew <= 600:
                self.error((*path, "clockSkew"), f"expected seconds from 0 to 600, got {shown(skew)}")
            else:
                got["clock_skew"] = float(skew)
        if "scopes" in m and (scopes := self.strings(m["scopes"], (*path, "scopes"))) is not None:
            got["scopes"] = scopes
        if "dashboardClient" in m:
            client = self.string(m["dashboardClient"], (*path, "dashboardClient"), empty=False)
            if client:
                got["dashboard_client"] = client
        typed = self.boolean(m["requireTokenType"], (*path, "requireTokenType")) if "requireTokenType" in m else None
        if typed is not None:
            got["require_token_type"] = typed
        if "clients" in m and (clients := self.strings(m["clients"], (*path, "clients"))) is not None:
            if not all(clients):
                self.error((*path, "clients"), "expected client ids, not empty strings")
            got["clients"] = tuple(clients)
        for role, attr in (("admins", "admins"), ("auditors", "auditors")):
            if role in m and (people := self.people(m[role], (*path, role))) is not None:
                got[attr] = people
        if "admins" not in m:
            self.warn(
                path,
                "no admins: signed-in people only use the gateway, and only the API token changes it "
                "(name them in identity.admins: {user: ..., group: ...})",
            )
        if "personClaim" in m and (claim := self.string(m["personClaim"], (*path, "personClaim"), empty=False)):
            got["person_claim"] = claim
        if "assignedClaims" in m:
            assigned = self.strings(m["assignedClaims"], (*path, "assignedClaims"))
            if assigned is not None and not all(assigned):
                self.error((*path, "assignedClaims"), "expected claim names, not empty strings")
            elif assigned is not None:
                got["assigned_claims"] = assigned
        if issuer and audience:
            self.identity = IdentityConfig(issuer=issuer, audience=audience, **got)

    def people(self, value: Any, path: tuple[Key, ...]) -> People | None:
        """`{user: NAME or [NAMES], group: GROUP or [GROUPS]}`: people named exactly, or by a group."""
        m = self.mapping(value, path, "a mapping with user and/or group")
        if m is None:
            return None
        self.keys(m, path, PEOPLE_KEYS)
        if not m.keys() & set(PEOPLE_KEYS):
            self.error(path, "expected a user and/or a group")
            return None
        named: dict[str, tuple[str, ...]] = {}
        for key in PEOPLE_KEYS:
            if key not in m:
                continue
            given = m[key]
            here = (*path, key)
            names = self.strings([given] if isinstance(given, str) else given, here)
            if names is None:
                continue
            if not names or not all(n.strip() for n in names):
                self.error(here, f"expected a {key} name or a non-empty list of them")
                continue
            for i, name in enumerate(names):
                if key == "user" and any(c in name for c in "*?["):
                    at = here if isinstance(given, str) else (*here, i)
                    self.error(at, f"{json.dumps(name)} is a glob; name each person exactly, or use a group")
            named[key] = tuple(n.strip() for n in names)
        return People.of(named.get("user", ()), named.get("group", ()))

    def read_overrides(self, value: Any, path: tuple[Key, ...]) -> dict[str, ToolOverride]:
        m = self.mapping(value, path, "a mapping of tool names (or globs) to hint values")
        out: dict[str, ToolOverride] = {}
        for tool, spec in (m or {}).items():
            here = (*path, tool)
            entry = self.mapping(spec, here, "a mapping of hints to true or false")
            if entry is None:
                continue
            hints: dict[Hint, bool] = {}
            spelled: dict[Hint, str] = {}
            title: str | None = None
            for k, v in entry.items():
                hint = HINT_SPELLINGS.get(k)
                if k == "title":
                    title = self.string(v, (*here, k))
                elif hint is None:
                    self.error((*here, k), f'unknown hint "{k}"{closest(k, [*HINT_SPELLINGS, "title"])}', key=True)
                elif hint in spelled:
                    self.error((*here, k), f'"{k}" repeats "{spelled[hint]}"; give one', key=True)
                elif (flag := self.override_flag(v, (*here, k))) is not None:
                    hints[hint], spelled[hint] = flag, k
            out[tool] = ToolOverride(hints=freeze(hints), title=title)
        return out

    def override_flag(self, value: Any, path: tuple[Key, ...]) -> bool | None:
        """An override's hint value: true or false, or a string of `${VAR}` references that expands to one.

        So one file serves several environments (`destructiveHint: "${UPDATE_DESTRUCTIVE}"`):
        the variable is read when the file is loaded (and at each reload); unset, or
        holding anything but true or false, is an error naming the variable.
        """
        if not isinstance(value, str) or "${" not in value:
            if isinstance(value, str) and value.strip().lower() in ("true", "false"):
                self.error(path, f"expected true or false, got {shown(value)}; write it without quotes")
                return None
            return self.boolean(value, path)
        taken = len(self.from_environment)
        text = self.expand(value, path)
        del self.from_environment[taken:]  # a hint's value is not a secret to mask
        if text is None:
            return None
        flag = {"true": True, "false": False}.get(text.strip().lower())
        if flag is None:
            # The value itself is never shown: the variable may hold a secret (a name mistyped).
            names = " and ".join(_names_in(value))
            self.error(path, f"expected true or false from the environment, but {names} gave something else")
        return flag

    # -- what every source entry shares

    def source_keys(
        self, m: Mapping[str, Any], path: tuple[Key, ...], spellings: Mapping[str, str]
    ) -> dict[str, tuple[Key, ...]]:
        """Map each setting given to the path of the spelling used; unknown and repeated keys are errors."""
        given: dict[str, tuple[Key, ...]] = {}
        for k in m:
            setting = spellings.get(k)
            if setting is None:
                if not k.startswith("x-"):
                    self.error((*path, k), f'unknown key "{k}"{closest(k, spellings)}', key=True)
            elif setting in given:
                self.error((*path, k), f'"{k}" repeats "{given[setting][-1]}"; give one', key=True)
            else:
                given[setting] = (*path, k)
        return given

    def trust(self, value: Any, path: tuple[Key, ...]) -> Trust | None:
        """A `trust` key's level; None (and a problem) when it is not one."""
        text = self.string(value, path)
        if text is None:
            return None
        if text not in {member.value for member in Trust}:
            levels = ", ".join(f'"{member.value}"' for member in Trust)
            self.error(path, f"expected one of {levels}, got {json.dumps(text)}")
            return None
        return Trust(text)

    def common(
        self, name: str, m: Mapping[str, Any], given: Mapping[str, tuple[Key, ...]]
    ) -> tuple[Trust | None, bool, str, dict[str, ToolOverride], float | None]:
        """trust (None when not given), enabled, prefix, overrides and timeout, read as for MCP servers."""

        def value_of(setting: str) -> Any:
            return m[str(given[setting][-1])]

        trust = self.trust(value_of("trust"), given["trust"]) if "trust" in given else None
        enabled = True
        if "enabled" in given and (flag := self.boolean(value_of("enabled"), given["enabled"])) is not None:
            enabled = flag
        prefix = self.prefix(name, value_of("prefix") if "prefix" in given else None, given.get("prefix"))
        overrides = self.read_overrides(value_of("overrides"), given["overrides"]) if "overrides" in given else {}
        timeout = self.seconds(value_of("timeout"), given["timeout"]) if "timeout" in given else None
        return trust, enabled, prefix, overrides, timeout


SETTINGS_SECTIONS: Mapping[str, Callable[[Reader, Any, tuple[Key, ...]], None]] = {
    # The sections read before the sources' (`hintgate.config.types`), in this order;
    # policy is read after them.
    "inference": Reader.read_inference,
    "timeouts": Reader.read_timeouts,
    "limits": Reader.read_limits,
    "env": Reader.read_env,
    "integrity": Reader.read_integrity,
    "identity": Reader.read_identity,
    "metrics": Reader.read_metrics,
    "search": Reader.read_search,
    "views": Reader.read_views,
}

_IDENTITY_NEEDS = {
    "issuer": "OpenID issuer URL of the identity provider",
    "audience": "resource tokens must be issued for: the gateway's public /mcp URL",
}


def _issuer_problem(issuer: str) -> str | None:
    """Why `issuer` cannot be an OpenID issuer: https (http only on loopback), no query or fragment."""
    parts = urlsplit(issuer)
    host = (parts.hostname or "").lower()
    local = host == "localhost" or host.startswith("127.") or host == "::1"
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        return f"expected an https:// URL (http:// only on this machine), got {json.dumps(issuer)}"
    if not host:
        return f"expected a URL with a host, got {json.dumps(issuer)}"
    if parts.query or parts.fragment:
        return f"an issuer has no query or fragment, got {json.dumps(issuer)}"
    return None


_VAR_RE = re.compile(r"\$\$|\$\{([^}]*)\}|\$\{")


def _names_in(text: str) -> list[str]:
    """The variables `text` refers to (`${NAME}`, `${env:NAME}`, `${NAME:-default}`), in order."""
    found = (_REF_RE.fullmatch(m.group(1)) for m in _VAR_RE.finditer(text) if m.group(1) is not None)
    return [ref.group(2) for ref in found if ref is not None]


_REF_RE = re.compile(r"(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?", re.DOTALL)
