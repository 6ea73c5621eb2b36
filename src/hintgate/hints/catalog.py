"""Tools as hintgate sees them: parsed, inferred, overridden and resolved.

Pure functions over sequences of tools. A tool arrives as the JSON object its
source listed; `resolve_tool` reads its annotations leniently (nothing lost),
runs inference on its name, description and input schema, applies operator
overrides and the trust rule, and returns a `ResolvedTool` that can say where
each hint came from.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hintgate.hints.annotations import (
    META_PREFIX,
    Annotations,
    Hint,
    Inferred,
    ParsedAnnotations,
    Resolution,
    Tier,
    parse_annotations,
    resolve,
)
from hintgate.hints.calls import ArgumentJudge
from hintgate.hints.facts import ToolFacts
from hintgate.hints.inference import infer
from hintgate.hints.names import sanitize
from hintgate.hints.titles import TitleOrigin, title_from_name
from hintgate.hints.trust import Trust

__all__ = [
    "META_CATEGORY",
    "META_PREFIX",
    "META_TAGS",
    "NAME_CHARS",
    "NAME_MAX",
    "NAME_MAX_STRICT",
    "SEPARATOR",
    "WIRE_KEYS",
    "Catalog",
    "CatalogEntry",
    "ResolveMemo",
    "ResolvedTool",
    "ToolFacts",
    "build_catalog",
    "name_problems",
    "public_name",
    "resolve_tool",
    "tier_counts",
    "wire_tool",
]

NAME_CHARS = re.compile(r"^[A-Za-z0-9_.\-]+$")
"""The characters the MCP spec (2025-11-25, "Tool names") allows in a tool name."""
NAME_MAX = 128
"""The spec's upper bound on a tool name's length (SHOULD)."""
NAME_MAX_STRICT = 64
"""The stricter bound the official conformance suite and several clients enforce."""
WIRE_KEYS = ("description", "inputSchema", "outputSchema", "icons", "execution")
"""The members of a source's tool passed on to clients as they are (name, title, annotations and `_meta` are
the gateway's): what the MCP spec defines for a tool, all of them pinned."""


class _NotYet:
    """A value not worked out yet."""


_NOT_YET = _NotYet()


@dataclass(frozen=True, slots=True)
class ResolvedTool:
    """One tool with its hints resolved.

    Attributes:
        name: the tool's name as listed.
        raw: the JSON object the source listed, untouched.
        parsed: its `annotations` read leniently (extra keys and bad values kept).
        resolution: hints in force with provenance, declared and inferred beside them.
        title: the title people see, never empty: override, declared, OpenAPI summary, else derived
            from the name (worked out once: every call's facts carry it).
        http_method: the HTTP method behind the tool (an OpenAPI operation's), else None.
        category: its category, from a source that files its tools (a Python registry), else None.
        tags: its tags, from such a source.
    """

    name: str
    raw: Mapping[str, Any]
    parsed: ParsedAnnotations
    resolution: Resolution

    title_override: str | None = None
    http_method: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    title: str = field(init=False, compare=False)
    _judge: ArgumentJudge | _NotYet | None = field(init=False, compare=False, repr=False, default=_NOT_YET)

    def __post_init__(self) -> None:
        title = self.title_override or self.declared_title or title_from_name(self.name) or self.name
        object.__setattr__(self, "title", title)

    @property
    def judge(self) -> ArgumentJudge | None:
        """Judges each call from its arguments (`hintgate.hints.calls`), when a parameter decides what a call does
        (SQL, a command, an HTTP method, an action); None otherwise.

        Worked out at its first use (a call, or a listing that marks resolvable tools), not as the tool is
        resolved: a first listing needs none, and reading the parameters' roles compiled the judges' patterns
        before it (2-5 ms of a start's CPU); they compile after it now (`scan.deferred.compile_pending`).
        """
        judge = self._judge
        if isinstance(judge, _NotYet):
            # An OpenAPI operation has one method and fixed parameters: its hints are its method's, per call too.
            judge = None if self.http_method is not None else ArgumentJudge.of(self.raw)
            object.__setattr__(self, "_judge", judge)
        return judge

    @property
    def resolvable(self) -> bool:
        """Whether its calls' hints may differ from its own (a parameter decides what a call does)."""
        return self.judge is not None

    @property
    def declared_title(self) -> str | None:
        """`Tool.title`, else `annotations.title`, as the source listed them; `None` when neither is set."""
        title = self.raw.get("title")
        if isinstance(title, str) and title.strip():
            return title
        title = self.parsed.annotations.title
        return title if title and title.strip() else None

    @property
    def title_origin(self) -> TitleOrigin:
        """Where `title` comes from (`hintgate.hints.titles`)."""
        if self.title_override:
            return TitleOrigin.OVERRIDE
        if self.declared_title is None:
            return TitleOrigin.DERIVED
        meta = self.raw.get("_meta")
        if self.http_method is not None and isinstance(meta, Mapping) and OPENAPI_META in meta:
            return TitleOrigin.OPENAPI
        return TitleOrigin.DECLARED

    @property
    def display_name(self) -> str:
        """The title (every tool has one)."""
        return self.title

    @property
    def description(self) -> str | None:
        """The tool's description, if it is a string."""
        description = self.raw.get("description")
        return description if isinstance(description, str) else None

    @property
    def declared(self) -> Annotations:
        """What the source declared (well-typed values only)."""
        return self.parsed.annotations

    @property
    def tier(self) -> Tier:
        """The tool's tier under its resolved hints."""
        return self.resolution.tier

    def to_json(self) -> dict[str, Any]:
        """The `infer --format json` shape: name, title, tier, annotations, provenance, declared, inferred."""
        resolution = self.resolution
        return {
            "name": self.name,
            "title": self.title,
            "title_provenance": self.title_origin.value,
            "tier": self.tier.value,
            "annotations": resolution.to_mcp(),
            "provenance": resolution.provenance(),
            "declared": self.declared.to_mcp(),
            "inferred": {
                h.value: {
                    "value": i.value,
                    "rule": i.rule,
                    "strength": i.strength.value,
                    **({"why": i.why} if i.why else {}),
                }
                for h, i in resolution.inferred.items()
            },
            **({"category": self.category} if self.category is not None else {}),
            **({"tags": list(self.tags)} if self.tags else {}),
        }


def resolve_tool(
    raw: Mapping[str, Any],
    *,
    facts: ToolFacts | None = None,
    trusted: bool = False,
    trust: Trust | None = None,
    overrides: Mapping[Hint, bool] | None = None,
    title_override: str | None = None,
    profile: str | None = None,
    ignore_declared: bool = False,
) -> ResolvedTool:
    """Resolve one tool's hints.

    Args:
        raw: the tool's JSON object as listed (`name`, `description`, `inputSchema`, `annotations`...).
        facts: what its source knows beyond `raw` (declared annotations parsed
            elsewhere, the HTTP method, the config's overrides and title).
        trusted: whether the source's declared hints are believed; an
            untrusted source cannot make a tool look safer than inference does.
        trust: the source's trust level (`hintgate.hints.trust`); when given it wins over `trusted`.
        overrides: operator values per hint, on top of the facts' overrides; they win over everything.
        title_override: an operator's annotation title, in place of the facts' title.
        profile: the HTTP-method inference profile (for tools of HTTP APIs).
        ignore_declared: resolve as if the source declared nothing (how inference is measured).

    Raises:
        HintTypeError: `raw["annotations"]` is present but not an object.
    """
    facts = facts or _NO_FACTS
    if facts.overrides:
        overrides = {**facts.overrides, **(overrides or {})}
    title_override = title_override or facts.title
    declared = facts.declared
    name = str(raw.get("name", ""))
    if declared is None:
        declared = parse_annotations(raw.get("annotations"), tool=name)
    description = raw.get("description")
    schema = raw.get("inputSchema")
    inferred: dict[Hint, Inferred] = infer(
        name,
        description if isinstance(description, str) else None,
        schema if isinstance(schema, Mapping) else None,
        http_method=facts.http_method,
        profile=profile,
    )
    resolution = resolve(
        declared=Annotations() if ignore_declared else declared.annotations,
        inferred=inferred,
        overrides=overrides,
        title_override=title_override,
        trust=trust if trust is not None else Trust.TRUSTED if trusted else Trust.UNTRUSTED,
    )
    return ResolvedTool(
        name=name,
        raw=raw,
        parsed=declared,
        resolution=resolution,
        title_override=title_override or None,
        http_method=facts.http_method,
        category=facts.category,
        tags=facts.tags,
    )


_NO_FACTS = ToolFacts()


class ResolveMemo:
    """Resolved tools kept from one catalog to the next, so a rebuild resolves only what changed.

    A tool is resolved again when its source listed a new object for it or
    any other input of `resolve_tool` differs (compared with ==); otherwise
    the kept `ResolvedTool` is reused. `resolved` counts the resolutions made.
    """

    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[Mapping[str, Any], object, ResolvedTool]] = {}
        self._next: dict[Hashable, tuple[Mapping[str, Any], object, ResolvedTool]] = {}
        self.resolved = 0

    def get(
        self, key: Hashable, raw: Mapping[str, Any], inputs: object, resolve: Callable[[], ResolvedTool]
    ) -> ResolvedTool:
        """The tool resolved from `raw` and `inputs`, calling `resolve` only when they changed since last time."""
        kept = self._kept.get(key)
        if kept is None or kept[0] is not raw or kept[1] != inputs:
            kept = (raw, inputs, resolve())
            self.resolved += 1
        self._next[key] = kept
        return kept[2]

    def wants(self, key: Hashable, raw: Mapping[str, Any], inputs: object) -> bool:
        """Whether `get` would resolve the tool now (nothing kept for this object and these inputs)."""
        kept = self._kept.get(key)
        return kept is None or kept[0] is not raw or kept[1] != inputs

    def prime(self, key: Hashable, raw: Mapping[str, Any], inputs: object, resolved: ResolvedTool) -> None:
        """Keep a resolution made elsewhere (off the event loop), so that the next `get` of it takes it."""
        self._kept[key] = (raw, inputs, resolved)

    def done(self) -> None:
        """End a catalog: tools it did not ask for are forgotten."""
        self._kept, self._next = self._next, {}

    def clear(self) -> None:
        """Forget everything: the next catalog resolves every tool."""
        self._kept, self._next = {}, {}


def name_problems(name: str) -> list[str]:
    """What is wrong with a tool name under the spec's naming rules (empty when nothing is)."""
    problems: list[str] = []
    if not name:
        return ["the name is empty"]
    if not NAME_CHARS.match(name):
        bad = sorted({c for c in name if not NAME_CHARS.match(c)})
        problems.append(f"contains characters outside A-Z a-z 0-9 _ - . : {''.join(bad)!r}")
    if len(name) > NAME_MAX:
        problems.append(f"is {len(name)} characters long, over the spec's {NAME_MAX}")
    elif len(name) > NAME_MAX_STRICT:
        problems.append(f"is {len(name)} characters long, over the {NAME_MAX_STRICT} that many clients accept")
    return problems


def tier_counts(tools: Sequence[ResolvedTool]) -> dict[Tier, int]:
    """How many tools are in each tier, every tier present."""
    counts = dict.fromkeys(Tier, 0)
    for tool in tools:
        counts[tool.tier] += 1
    return counts


META_CATEGORY = "hintgate/category"
"""The `_meta` key of a tool's category (a Python registry's `category`)."""
META_TAGS = "hintgate/tags"
"""The `_meta` key of a tool's tags (a Python registry's `tags`), a list of strings."""
SEPARATOR = "_"
"""Between a server's prefix and its tool's name: `time_get_current_time` (the common convention)."""
OPENAPI_META = "hintgate/openapi"
"""The `_meta` key an OpenAPI source puts on its tools (method, path, operationId)."""


def public_name(prefix: str, name: str, *, limit: int = NAME_MAX_STRICT) -> str:
    """The name a tool gets in the gateway: prefix, separator, name; valid and at most `limit` long.

    Characters the spec does not allow become `_`; a name over the limit keeps
    its beginning and ends in 8 hex digits of a hash of the whole, so it stays
    unique and is the same on every run.
    """
    joined = f"{prefix}{SEPARATOR}{name}" if prefix else name
    cleaned = sanitize(joined) or "_"
    if len(cleaned) <= limit:
        return cleaned
    digest = hashlib.sha256(joined.encode()).hexdigest()[:8]
    return f"{cleaned[: limit - 9]}_{digest}"


@dataclass(frozen=True, slots=True)
class CatalogEntry:
    """A tool as the gateway serves it.

    Attributes:
        name: the public (namespaced) name.
        server: the source it comes from.
        upstream_name: its name at the source.
        tool: the resolved tool.
        wire: the `tools/list` entry sent to clients (built once).
        snapshot: the hints in force with provenance and tier, as calls record them (built once).
        spelled: prefix and name as the source spelled them, before sanitizing (deny rules match it too).
        quarantine: why the tool is held (a high poisoning-scan finding not yet accepted): every call asks.
    """

    name: str
    server: str
    upstream_name: str
    tool: ResolvedTool
    wire: Mapping[str, Any]
    snapshot: Mapping[str, Any]
    spelled: str = ""
    quarantine: str | None = None

    @property
    def tier(self) -> Tier:
        """The tool's tier."""
        return self.tool.tier

    @property
    def tags(self) -> frozenset[str]:
        """The tool's tags (empty for a source that has none)."""
        return frozenset(self.tool.tags)

    def to_json(self) -> dict[str, Any]:
        """The `hintgate tools --format json` shape."""
        return {**self.tool.to_json(), "name": self.name, "server": self.server, "upstream_name": self.upstream_name}


def wire_tool(name: str, server: str, tool: ResolvedTool) -> dict[str, Any]:
    """The tools/list entry for a resolved tool: the source's definition, renamed and fully annotated.

    Only the members the MCP spec defines for a tool are passed on
    (`WIRE_KEYS`: description, schemas, icons, execution), every one of them
    covered by the tool's pin (`hintgate.hints.pins.CANONICAL_KEYS`); any
    other member the source sent, and its `_meta`, stay with the gateway, so
    nothing unpinned and unscanned reaches a client. `title` becomes the title
    in force (never empty, see `hintgate.hints.titles`); `annotations` carries
    all four hints explicitly and the annotation title in force; `_meta` holds
    hintgate's explanation only: provenance, the title's provenance
    (``hintgate/title``), tier, server, the source-side name, any
    annotation keys the spec does not define (which the MCP SDK's types would
    otherwise drop), and the category and tags of a source that files its
    tools (``hintgate/category``, ``hintgate/tags``: a Python registry's, pinned
    with the definition).
    """
    out = {key: tool.raw[key] for key in WIRE_KEYS if tool.raw.get(key) is not None}
    out["name"] = name
    out["title"] = tool.title
    out["annotations"] = tool.resolution.to_mcp()
    meta: dict[str, Any] = {}
    raw_meta = tool.raw.get("_meta")
    openapi = raw_meta.get(OPENAPI_META) if isinstance(raw_meta, Mapping) and tool.http_method is not None else None
    if isinstance(openapi, Mapping):
        # What an OpenAPI source says of the operation (method, path); an MCP server's `_meta` never passes.
        meta[OPENAPI_META] = openapi
    meta[META_PREFIX + "provenance"] = tool.resolution.provenance()
    meta[META_PREFIX + "tier"] = tool.tier.value
    meta[META_PREFIX + "title"] = tool.title_origin.value
    meta[META_PREFIX + "server"] = server
    if name != tool.name:
        meta[META_PREFIX + "name"] = tool.name
    if tool.category is not None:
        meta[META_CATEGORY] = tool.category
    if tool.tags:
        meta[META_TAGS] = list(tool.tags)
    if tool.parsed.extra:
        meta[META_PREFIX + "annotations"] = dict(tool.parsed.extra)
    if tool.parsed.invalid:
        meta[META_PREFIX + "invalid-annotations"] = dict(tool.parsed.invalid)
    distrusted = {h.value: r.distrusted for h, r in tool.resolution.hints.items() if r.distrusted is not None}
    if distrusted:
        meta[META_PREFIX + "distrusted"] = distrusted
    out["_meta"] = meta
    return out


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every tool the gateway serves, by public name, in a stable order.

    Attributes:
        entries: public name → entry, in source order then listing order.
        problems: names that had to change (collisions, invalid characters, length).
    """

    entries: Mapping[str, CatalogEntry]
    problems: tuple[str, ...] = ()
    wire: tuple[Mapping[str, Any], ...] = ()

    def get(self, name: str) -> CatalogEntry | None:
        """The entry of a public name, if any."""
        return self.entries.get(name)


def build_catalog(
    groups: Iterable[tuple[str, str, Sequence[ResolvedTool]]],
    *,
    held: Mapping[str, str] | None = None,
    previous: Catalog | None = None,
    bound: Mapping[tuple[str, str], str] | None = None,
) -> Catalog:
    """Namespace and merge the tools of several sources.

    Args:
        groups: (server name, prefix, resolved tools) per source, in config order.
        held: public name → the server it was given to before (in earlier
            catalogs of this gateway). A name once given stays with its server:
            a tool of another server that would get it now is renamed instead.
        previous: the catalog built before; an entry whose name, server and
            resolved tool (the same object) are unchanged is reused as it was.
        bound: (server, tool at the source) → the public name it was given
            (for the life of the store: its pin's). A bound name is that tool's
            and no other's, whatever the order a server lists its tools in.

    Public names are what allow rules, session approvals, retry memory and
    clients hold on to, so a name never moves to another tool: a tool keeps
    the name bound to it (unless its server's prefix changed it); a name bound
    to another tool, or held by another server, is not given; other
    collisions are resolved by config order, then listing order (the first
    keeps the name, later ones get `_2`, `_3`...). A name one server lists
    twice is a protocol error: none of its copies is served. Every change of
    name and every refused copy is reported in `problems`.
    """
    held = held or {}
    bound = bound or {}
    reserved = {name: key for key, name in bound.items()}
    listed = [(server, prefix, tool) for server, prefix, tools in groups for tool in tools]
    counts: dict[tuple[str, str], int] = {}
    for server, _, tool in listed:
        counts[(server, tool.name)] = counts.get((server, tool.name), 0) + 1
    problems = [
        f"{server}: tool {tool!r} is listed {n} times in one listing (a protocol error): none of them is served"
        for (server, tool), n in counts.items()
        if n > 1
    ]
    listed = [item for item in listed if counts[(item[0], item[2].name)] == 1]
    names: list[str | None] = [None] * len(listed)
    owner: dict[str, tuple[str, str]] = {}
    # Incumbents first: a tool keeps the name bound to it, then a tool listed again by the server that held its name.
    for i, (server, prefix, tool) in enumerate(listed):
        mine = bound.get((server, tool.name))
        if mine is not None and mine not in owner and _derived(mine, public_name(prefix, tool.name)):
            names[i], owner[mine] = mine, (server, tool.name)
    for i, (server, prefix, tool) in enumerate(listed):
        name = public_name(prefix, tool.name)
        key = (server, tool.name)
        if names[i] is None and held.get(name) == server and name not in owner and reserved.get(name, key) == key:
            names[i], owner[name] = name, key
    for i, (server, prefix, tool) in enumerate(listed):
        key = (server, tool.name)
        wanted = f"{prefix}{SEPARATOR}{tool.name}" if prefix else tool.name
        name = public_name(prefix, tool.name)
        if name != wanted:
            problems.append(f"{server}: tool {tool.name!r} is served as {name!r} (invalid characters or length)")
        if names[i] is None:
            base, n = name, 2
            while name in owner or held.get(name, server) != server or reserved.get(name, key) != key:
                name = public_name("", f"{base}_{n}")
                n += 1
            if name != base:
                if base in owner:
                    other_server, other_tool = owner[base]
                    whose = f"{other_server}'s {other_tool!r}"
                elif base in reserved:
                    other_server, other_tool = reserved[base]
                    whose = f"bound to {other_server}'s {other_tool!r}"
                else:
                    whose = f"held by {held[base]} (not listed now)"
                problems.append(
                    f"{server}: tool {tool.name!r} is served as {name!r}: {base!r} is already {whose} "
                    "(a public name never moves to another tool)"
                )
            names[i], owner[name] = name, key
    entries: dict[str, CatalogEntry] = {}
    before = previous.entries if previous is not None else {}
    for (server, prefix, tool), given in zip(listed, names, strict=True):
        name = str(given)  # every tool was named above
        spelled = f"{prefix}{SEPARATOR}{tool.name}" if prefix else tool.name
        kept = before.get(name)
        if kept is not None and kept.tool is tool and kept.server == server and kept.spelled == spelled:
            entries[name] = kept
            continue
        wire = wire_tool(name, server, tool)
        snapshot = {
            "annotations": wire["annotations"],
            "provenance": wire["_meta"][META_PREFIX + "provenance"],
            "tier": tool.tier.value,
        }
        entries[name] = CatalogEntry(name, server, tool.name, tool, wire, snapshot, spelled)
    return Catalog(entries, tuple(problems), tuple(e.wire for e in entries.values()))


_SUFFIX = re.compile(r"_\d+$")


def _derived(given: str, wanted: str, *, limit: int = NAME_MAX_STRICT) -> bool:
    """Whether `given` is `wanted` or one of the names made from it when it was taken (`_2`, `_3`... or, for a
    long name, its shortened form): a bound name made under another prefix is not."""
    if given == wanted or _SUFFIX.sub("", given) == wanted:
        return True
    return len(given) == limit and given[: limit - 9] == wanted[: limit - 9]
