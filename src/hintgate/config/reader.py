"""One validation pass over a config file: the problems it finds and the value readers every section uses.

`Reader` collects every problem with its line, column and key path, reads
values (strings with `${VAR}` expanded, booleans, seconds, lists, overrides,
what every source entry shares) reporting each wrong one, and keeps what the
sections read. The file's top and its settings sections are read by
`hintgate.config.sections`; the sources' sections by their type's validator
(`hintgate.config.mcp_entry`, `.openapi_entry`, `.python_entry`, named in
`hintgate.config.types.SOURCE_TYPES`). Kept apart from the values
`hintgate.config.model` defines, so that the reference of what a config holds
stays short.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hintgate.config.model import (
    PREFIX_RE,
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
from hintgate.discovery.served import SearchSettings
from hintgate.discovery.views import View
from hintgate.errors import ConfigError
from hintgate.hints.annotations import Hint
from hintgate.policy.rules import PolicySettings, Rule

if TYPE_CHECKING:
    from hintgate.config.types import SourceType


HINT_SPELLINGS: Mapping[str, Hint] = {
    **{hint.value: hint for hint in Hint},
    **{hint.attr: hint for hint in Hint},
}
"""How an override may name a hint (`readOnlyHint` or `read_only`); an override also takes `title`."""


def spellings(*settings: str) -> dict[str, str]:
    """Spelling -> setting for `settings`: each as written, and a snake_case one in camelCase too (`base_url`,
    `baseUrl`), as the clients whose configs hintgate reads write them."""
    spelled: dict[str, str] = {}
    for setting in settings:
        first, *rest = setting.split("_")
        spelled[setting] = setting
        spelled[first + "".join(word.capitalize() for word in rest)] = setting
    return spelled


COMMON_KEYS: Mapping[str, str] = spellings("trust", "enabled", "prefix", "overrides", "timeout")
"""Spelling -> setting of the keys `Reader.common` reads, which OpenAPI and Python source entries share."""


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


class Given(dict[str, tuple[Key, ...]]):
    """The settings one entry gives: each setting → the path of the spelling the entry used for it.

    `value` reads what the entry gives for a setting, whichever spelling it used (`baseUrl` or `base_url`).
    """

    def __init__(self, entry: Mapping[str, Any]) -> None:
        super().__init__()
        self.entry = entry

    def value(self, setting: str) -> Any:
        """What the entry gives for `setting` (given, as `setting in self` says)."""
        return self.entry[str(self[setting][-1])]


class Reader:
    """One validation pass over a decoded file: the problems found, the values read, the readers of values.

    The sections' readers (`hintgate.config.sections`, the source types' validators) take it as their first
    argument and keep what they read in its attributes; `hintgate.config.sections.read_file` builds the
    `GatewayConfig` from them.
    """

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

    # -- what the sections read

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

    def entries(
        self, value: Any, path: tuple[Key, ...], what: str, read: Callable[[Reader, str, Any, tuple[Key, ...]], None]
    ) -> None:
        """A source section, `what`: `read` each of its entries by name (a section left empty has none)."""
        if value is None:
            return  # `mcpServers:` with every entry commented out: no servers
        for name, entry in (self.mapping(value, path, what) or {}).items():
            read(self, name, entry, (*path, name))

    def source_keys(self, m: Mapping[str, Any], path: tuple[Key, ...], spellings: Mapping[str, str]) -> Given:
        """Map each setting given to the path of the spelling used; unknown and repeated keys are errors."""
        given = Given(m)
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
        levels = ", ".join(f'"{member.value}"' for member in Trust)
        if not isinstance(value, str):  # a word is wanted: "quote it" would not make 5 or true one
            self.error(path, f"expected one of {levels}, got {shown(value)}")
            return None
        text = self.string(value, path)
        if text is None:
            return None
        if text not in {member.value for member in Trust}:
            self.error(path, f"expected one of {levels}, got {json.dumps(text)}")
            return None
        return Trust(text)

    def common(self, name: str, given: Given) -> tuple[Trust | None, bool, str, dict[str, ToolOverride], float | None]:
        """trust (None when not given), enabled, prefix, overrides and timeout, read as for MCP servers."""
        trust = self.trust(given.value("trust"), given["trust"]) if "trust" in given else None
        enabled = True
        if "enabled" in given and (flag := self.boolean(given.value("enabled"), given["enabled"])) is not None:
            enabled = flag
        prefix = self.prefix(name, given.value("prefix") if "prefix" in given else None, given.get("prefix"))
        overrides = self.read_overrides(given.value("overrides"), given["overrides"]) if "overrides" in given else {}
        timeout = self.seconds(given.value("timeout"), given["timeout"]) if "timeout" in given else None
        return trust, enabled, prefix, overrides, timeout


_VAR_RE = re.compile(r"\$\$|\$\{([^}]*)\}|\$\{")


def _names_in(text: str) -> list[str]:
    """The variables `text` refers to (`${NAME}`, `${env:NAME}`, `${NAME:-default}`), in order."""
    found = (_REF_RE.fullmatch(m.group(1)) for m in _VAR_RE.finditer(text) if m.group(1) is not None)
    return [ref.group(2) for ref in found if ref is not None]


_REF_RE = re.compile(r"(env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?", re.DOTALL)
