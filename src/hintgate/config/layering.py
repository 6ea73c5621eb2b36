"""Servers changed while the gateway runs: a layer of changes over the config file.

The config file stays the user's: hintgate never writes it. Servers added,
edited, removed, enabled or disabled through the REST API, the dashboard or
`hintgate servers` are kept as one change per server name (in the store when
there is one) and laid over the file's sources whenever the file is read,
at start and on every reload. A change of a server wins over the file's
entry for it until the change is reset.

An added or edited server is the same JSON as an `mcpServers` entry, read by
the same validator as the file (`hintgate.config.mcp_entry`), so a body the
API accepts is exactly an entry the file would accept.

A trust change (`hintgate trust`) of a server defined at run time sets its
entry's `trust`; of a config file's source (of any type), it is an overlay,
`{"trust": LEVEL}`, kept with that source's enable or disable change. Either
way the level's origin is `runtime`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, get_args

from hintgate.config.mcp_entry import read_server
from hintgate.config.model import GatewayConfig, ServerConfig, SourceConfig, freeze
from hintgate.config.reader import Reader
from hintgate.config.types import SOURCE_TYPES
from hintgate.config.yamlpos import Key, Positions, format_path
from hintgate.hints.trust import Trust, TrustFrom

__all__ = [
    "ACTIONS",
    "OVERLAY_KEYS",
    "Action",
    "EntryProblem",
    "InvalidEntry",
    "Layered",
    "ServerChange",
    "is_overlay",
    "lay_over",
    "read_entry",
]

Action = Literal["add", "edit", "remove", "enable", "disable"]
ACTIONS: tuple[Action, ...] = get_args(Action)
"""What a runtime change does to a server: `add` one the file lacks, `edit` (replace) one it has,
`remove`, `enable` or `disable` one."""


OVERLAY_KEYS = frozenset({"trust"})
"""The keys a change may lay over a config file's source without redefining it."""


def is_overlay(config: Mapping[str, Any] | None) -> bool:
    """Whether a change's `config` is an overlay of a file's source (`{"trust": ...}`), not a whole entry."""
    return config is not None and bool(config) and set(config) <= OVERLAY_KEYS


@dataclass(frozen=True, slots=True)
class ServerChange:
    """One server's runtime change, as stored.

    Attributes:
        name: the server's name.
        action: what the change does (`ACTIONS`).
        config: the server's entry (`mcpServers` JSON) when the change defines the server (add, edit,
            and enable or disable of a server defined at run time); None when it acts on the file's entry.
        changed_at: when it was made.
        changed_by: who made it ("api", "dashboard", "cli").
    """

    name: str
    action: Action
    config: Mapping[str, Any] | None
    changed_at: datetime
    changed_by: str


@dataclass(frozen=True, slots=True)
class EntryProblem:
    """One problem of a server entry: where in the entry (JSON path, keys and indexes) and what."""

    loc: tuple[Key, ...]
    message: str

    def __str__(self) -> str:
        where = format_path(("body", *self.loc))
        return f"{where}: {self.message}"


class InvalidEntry(ValueError):
    """A server entry (a request body, a stored change) is not a valid `mcpServers` entry.

    Attributes:
        problems: every problem found, each with its JSON path.
    """

    def __init__(self, problems: Iterable[EntryProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


def read_entry(
    name: str,
    entry: Any,
    *,
    base: GatewayConfig,
    environ: Mapping[str, str],
    others: Mapping[str, SourceConfig] | None = None,
) -> tuple[ServerConfig, tuple[str, ...]]:
    """Validate one server entry as the config file's `mcpServers.NAME` would be; returns it and its warnings.

    Args:
        name: the server's name.
        entry: the decoded JSON of the entry (`command`/`url`, `args`, `env`, `headers`, `trust`, ...).
        base: the config the entry joins: its `timeouts` are the defaults, its directory resolves a relative `cwd`.
        environ: what `${VAR}` may refer to.
        others: the other sources the entry runs beside, whose names and prefixes it must not take.

    Raises:
        InvalidEntry: every problem, each located by its JSON path in the entry.
    """
    base_dir = base.source.resolve().parent if base.source is not None else None
    reader = Reader("<entry>", Positions(), environ, base_dir, SOURCE_TYPES)
    reader.timeouts = base.timeouts
    problems: list[EntryProblem] = []
    if not isinstance(name, str) or not name.strip():
        problems.append(EntryProblem(("name",), "a server needs a non-empty name"))
    elif name != name.strip() or "/" in name or any(ord(c) < 32 for c in name):
        problems.append(
            EntryProblem(("name",), "a server's name has no surrounding spaces, slashes or control characters")
        )
    if isinstance(entry, Mapping) and "name" in entry and entry["name"] != name:
        problems.append(EntryProblem(("name",), f"is {json.dumps(entry['name'])} but the server is {json.dumps(name)}"))
    if isinstance(entry, Mapping):
        entry = {k: v for k, v in entry.items() if k != "name"}
    read_server(reader, name, entry, ())
    for _, text, path in sorted(reader.problems, key=lambda p: p[0]):
        problems.append(EntryProblem(path, _message(text, path)))
    server = reader.sources.get(name)
    if not problems and isinstance(server, ServerConfig):
        problems.extend(_clashes(server, others or {}))
    if problems or not isinstance(server, ServerConfig):
        raise InvalidEntry(problems or [EntryProblem((), "is not a valid server")])
    warnings = tuple(text.removeprefix("<entry>: ") for _, text in sorted(reader.notes, key=lambda n: n[0]))
    return server, warnings


def _message(text: str, path: tuple[Key, ...]) -> str:
    """A reader line without its location (`<entry>: PATH: `): `EntryProblem` says where."""
    text = text.removeprefix("<entry>: ")
    dotted = format_path(path)
    return text.removeprefix(f"{dotted}: ") if dotted else text


def _clashes(server: ServerConfig, others: Mapping[str, SourceConfig]) -> list[EntryProblem]:
    problems = []
    for other in others.values():
        if other.name == server.name:
            continue
        if server.prefix and other.prefix == server.prefix:
            noun = next(t.noun for t in SOURCE_TYPES if t.kind == other.kind)
            problems.append(
                EntryProblem(
                    ("prefix",),
                    f'"{server.prefix}" is also the prefix of {noun} "{other.name}"; their tool names would collide',
                )
            )
    return problems


@dataclass(frozen=True)
class Layered:
    """The config in force: the file's sources with the runtime changes laid over them.

    Attributes:
        config: the effective config (the file's settings, its sources changed).
        file: the config file as read.
        changes: the changes in force, by server name.
        problems: stored changes that could not be applied (kept in the store, the file's entry used), in words.
    """

    config: GatewayConfig
    file: GatewayConfig
    changes: Mapping[str, ServerChange] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    def origin(self, name: str) -> Literal["config", "runtime"]:
        """`runtime` when the server's definition comes from a runtime change, else `config` (the file's)."""
        change = self.changes.get(name)
        return (
            "runtime"
            if change is not None and change.config is not None and not is_overlay(change.config)
            else "config"
        )


def lay_over(file: GatewayConfig, changes: Iterable[ServerChange], *, environ: Mapping[str, str]) -> Layered:
    """Apply runtime changes, oldest first, to a config file's sources.

    A change that no longer applies (its entry fails validation, e.g. a
    `${VAR}` that is no longer set; or it acts on a server the file no longer
    has) is skipped and described in `problems`; nothing is dropped from the store.
    """
    sources: dict[str, SourceConfig] = dict(file.sources)
    applied: dict[str, ServerChange] = {}
    problems: list[str] = []
    for change in sorted(changes, key=lambda c: c.changed_at):
        name = change.name
        entry: SourceConfig | None
        overlay = is_overlay(change.config)
        if change.config is not None and not overlay:
            try:
                entry, _ = read_entry(name, change.config, base=file, environ=environ, others=sources)
            except InvalidEntry as exc:
                problems.append(f"the runtime change of server {json.dumps(name)} ({change.action}) is skipped: {exc}")
                continue
        else:
            entry = sources.get(name)
        if entry is not None and change.config is not None and "trust" in change.config:
            level = change.config["trust"]
            if level not in {t.value for t in Trust}:
                problems.append(f"the runtime trust of server {json.dumps(name)} is skipped: {json.dumps(level)}")
            else:
                entry = dataclasses.replace(entry, trust=Trust(level), trust_from=TrustFrom.RUNTIME)  # type: ignore[type-var]
        if change.action == "remove":
            sources.pop(name, None)
        elif entry is None:
            problems.append(
                f"the runtime change of server {json.dumps(name)} ({change.action}) is skipped: "
                "the config file no longer has that server"
            )
            continue
        elif change.action in ("enable", "disable"):
            sources[name] = dataclasses.replace(entry, enabled=change.action == "enable")  # type: ignore[type-var]
        else:
            sources[name] = entry
        applied[name] = change
    config = dataclasses.replace(file, sources=freeze(sources))
    return Layered(config=config, file=file, changes=freeze(applied), problems=tuple(problems))
