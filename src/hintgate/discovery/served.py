"""The two tools the gateway serves itself: `search_tools` (find a tool by what it does) and `call_tool`.

A client with a large catalog need not hold every tool in its context: it asks
`search_tools` for the few that fit a task and runs one through `call_tool`
(or directly by the name the search gave). `search: {mode}` says when they are
listed (`SearchMode`). Their names are `search_tools` and `call_tool` unless
a tool of the catalog already has one; then `hintgate_search_tools` (and so
on, `hintgate_search_tools_2` ...), so an upstream's tool is never shadowed.

This module is pure: the definitions, the checking of their arguments (every
problem named with its JSON path) and the shape of a search's answer. The
gateway (`hintgate.server.search`) ranks and calls.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hintgate.hints.annotations import META_PREFIX, Hint, Tier
from hintgate.hints.names import names_match

__all__ = [
    "AUTO_THRESHOLD",
    "CALL_TOOL",
    "LIMIT_DEFAULT",
    "LIMIT_MAX",
    "QUERY_MAX",
    "SEARCH_TOOLS",
    "BadArguments",
    "SearchMode",
    "SearchRequest",
    "SearchSettings",
    "call_definition",
    "own_names",
    "parse_call",
    "parse_search",
    "search_answer",
    "search_definition",
]

SEARCH_TOOLS = "search_tools"
CALL_TOOL = "call_tool"
AUTO_THRESHOLD = 50
"""In `auto` mode the two tools are listed once a client's list holds more tools than this."""
LIMIT_DEFAULT = 5
LIMIT_MAX = 50
QUERY_MAX = 1000
"""Characters of a query read; a longer query is refused (a task is said in far fewer)."""
_OWN_PREFIX = "hintgate_"


class SearchMode(enum.StrEnum):
    """When `search_tools` and `call_tool` are listed (`search.mode`)."""

    AUTO = "auto"  # beside the catalog, once a client's list holds more than AUTO_THRESHOLD tools
    ALWAYS = "always"  # beside the catalog, always
    ONLY = "only"  # instead of the catalog: the two tools and those `search.alwaysList` names
    OFF = "off"  # never


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """The config's `search` section.

    Attributes:
        mode: when the two tools are listed.
        always_list: in `only` mode, tools (public names or globs) listed beside the two all the same.
    """

    mode: SearchMode = SearchMode.AUTO
    always_list: tuple[str, ...] = ()

    def served(self, listed: int) -> bool:
        """Whether the two tools are served to a client whose list (view and person applied) holds `listed` tools."""
        if self.mode is SearchMode.OFF:
            return False
        return self.mode is not SearchMode.AUTO or listed > AUTO_THRESHOLD

    def listing(self, tools: Sequence[Mapping[str, Any]], own: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """What `tools/list` holds: the client's `tools` and, when served, the two tools `own`."""
        if not self.served(len(tools)):
            return list(tools)
        if self.mode is SearchMode.ONLY:
            pinned = [t for t in tools if self.always_list and names_match(self.always_list, str(t.get("name")))]
            return [*own, *pinned]
        return [*tools, *own]


def own_names(taken: Collection[str]) -> tuple[str, str]:
    """The names of `search_tools` and `call_tool` in a catalog whose tools hold the names `taken`."""

    def free(base: str) -> str:
        if base not in taken:
            return base
        name, n = _OWN_PREFIX + base, 2
        while name in taken:
            name = f"{_OWN_PREFIX}{base}_{n}"
            n += 1
        return name

    return free(SEARCH_TOOLS), free(CALL_TOOL)


_ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "tools": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "title": {"type": "string"},
                    "description": {"type": "string"},
                    "annotations": {"type": "object"},
                    "server": {"type": "string"},
                    "score": {"type": "number"},
                },
                "required": ["name", "title", "description", "annotations", "server", "score"],
            },
        }
    },
    "required": ["tools"],
}


def _meta(tier: Tier) -> dict[str, Any]:
    return {
        META_PREFIX + "provenance": {h.value: "declared" for h in Hint},
        META_PREFIX + "tier": tier.value,
        META_PREFIX + "title": "declared",
        META_PREFIX + "server": "hintgate",
    }


def search_definition(name: str, call_name: str) -> dict[str, Any]:
    """The `tools/list` entry of `search_tools` (read-only, closed world: it reads the gateway's own catalog)."""
    tiers = [t.value for t in Tier]
    return {
        "name": name,
        "title": "Search tools",
        "description": (
            "Find the tools that fit a task among all the tools this gateway serves, best first. "
            "Describe what you want to do in your own words; filter by readOnly (only tools that change "
            "nothing), tier, server or tags. Call a tool found by its name, directly or through "
            f"{call_name}."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": QUERY_MAX,
                    "description": "What you want to do, in any words.",
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": LIMIT_MAX,
                    "default": LIMIT_DEFAULT,
                    "description": "How many tools at most.",
                },
                "readOnly": {"type": "boolean", "description": "true: only tools whose readOnly hint is true."},
                "tier": {"type": "string", "enum": tiers, "description": "Only tools of this risk tier."},
                "server": {"type": "string", "description": "Only tools of this server."},
                "tags": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Only tools carrying every one of these tags.",
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
        "outputSchema": _ANSWER_SCHEMA,
        "annotations": {
            "title": "Search tools",
            "readOnlyHint": True,
            "destructiveHint": False,
            "idempotentHint": True,
            "openWorldHint": False,
        },
        "_meta": _meta(Tier.READ_ONLY),
    }


def call_definition(name: str, search_name: str, tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The `tools/list` entry of `call_tool`, whose hints are the riskiest of the `tools` it may call.

    readOnly only when every tool is read-only, destructive when one that is not read-only is destructive,
    idempotent only when every one is, open world when any one is: a client that trusts the hints of
    `call_tool` is never told it is safer than a tool it reaches. Each call asks as the called tool would.
    """
    hints: list[Mapping[str, Any]] = []
    for tool in tools:
        given = tool.get("annotations")
        hints.append(given if isinstance(given, Mapping) else {})
    read_only = bool(hints) and all(h.get("readOnlyHint") is True for h in hints)
    writes = [h for h in hints if h.get("readOnlyHint") is not True]
    destructive = any(h.get("destructiveHint") is not False for h in writes)
    idempotent = bool(hints) and all(h.get("idempotentHint") is True for h in hints)
    open_world = not hints or any(h.get("openWorldHint") is not False for h in hints)
    tier = Tier.READ_ONLY if read_only else Tier.DESTRUCTIVE if destructive else Tier.ADDITIVE
    return {
        "name": name,
        "title": "Call a tool",
        "description": (
            f"Run a tool found with {search_name}, by its name, with its arguments. The call is decided, "
            "asked about and recorded exactly as a direct call of that tool."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": f"The tool's name, as {search_name} gave it."},
                "arguments": {"type": "object", "description": "The tool's arguments, as its inputSchema says."},
            },
            "required": ["name"],
            "additionalProperties": False,
        },
        "annotations": {
            "title": "Call a tool",
            "readOnlyHint": read_only,
            "destructiveHint": destructive and not read_only,
            "idempotentHint": idempotent,
            "openWorldHint": open_world,
        },
        "_meta": _meta(tier),
    }


class BadArguments(ValueError):
    """The arguments of `search_tools` or `call_tool` are not what its input schema says (the message says where)."""


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One `search_tools` call's arguments, checked."""

    query: str
    limit: int = LIMIT_DEFAULT
    read_only: bool | None = None
    tier: Tier | None = None
    server: str | None = None
    tags: tuple[str, ...] = ()


_SEARCH_KEYS = ("query", "limit", "readOnly", "tier", "server", "tags")


def parse_search(arguments: Mapping[str, Any] | None) -> SearchRequest:
    """`search_tools`'s arguments, checked.

    Raises:
        BadArguments: a missing query, a value of the wrong type or out of range, an unknown key.
    """
    args = arguments or {}
    unknown = sorted(k for k in args if k not in _SEARCH_KEYS)
    if unknown:
        raise BadArguments(f"arguments.{unknown[0]}: unknown argument (expected {', '.join(_SEARCH_KEYS)})")
    query = args.get("query")
    if not isinstance(query, str) or not query.strip():
        raise BadArguments("arguments.query: expected a non-empty string")
    if len(query) > QUERY_MAX:
        raise BadArguments(f"arguments.query: {len(query)} characters, at most {QUERY_MAX}")
    limit = args.get("limit", LIMIT_DEFAULT)
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= LIMIT_MAX:
        raise BadArguments(f"arguments.limit: expected an integer from 1 to {LIMIT_MAX}, got {json.dumps(limit)}")
    read_only = args.get("readOnly")
    if read_only is not None and not isinstance(read_only, bool):
        raise BadArguments(f"arguments.readOnly: expected true or false, got {json.dumps(read_only)}")
    tier_given = args.get("tier")
    tier = None
    if tier_given is not None:
        try:
            tier = Tier(tier_given)
        except ValueError:
            choices = ", ".join(t.value for t in Tier)
            raise BadArguments(f"arguments.tier: expected one of {choices}, got {json.dumps(tier_given)}") from None
    server = args.get("server")
    if server is not None and not isinstance(server, str):
        raise BadArguments(f"arguments.server: expected a string, got {json.dumps(server)}")
    tags = args.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise BadArguments("arguments.tags: expected a list of strings")
    return SearchRequest(query, limit, read_only, tier, server, tuple(tags))


def parse_call(arguments: Mapping[str, Any] | None) -> tuple[str, Mapping[str, Any] | None]:
    """`call_tool`'s arguments, checked: the tool's name and its arguments.

    Raises:
        BadArguments: no name, arguments that are not an object, an unknown key.
    """
    args = arguments or {}
    unknown = sorted(k for k in args if k not in ("name", "arguments"))
    if unknown:
        raise BadArguments(f"arguments.{unknown[0]}: unknown argument (expected name, arguments)")
    name = args.get("name")
    if not isinstance(name, str) or not name:
        raise BadArguments("arguments.name: expected the name of a tool (a non-empty string)")
    inner = args.get("arguments")
    if inner is not None and not isinstance(inner, Mapping):
        raise BadArguments(f"arguments.arguments: expected an object, got {json.dumps(inner)[:80]}")
    return name, inner


def search_answer(found: Sequence[tuple[Mapping[str, Any], float]]) -> dict[str, Any]:
    """The `search_tools` result for the tools found (their `tools/list` entries, with scores), best first:
    `structuredContent` and the same JSON as text."""
    tools = []
    for tool, score in found:
        meta = tool.get("_meta")
        server = meta.get(META_PREFIX + "server") if isinstance(meta, Mapping) else None
        description = tool.get("description")
        tools.append(
            {
                "name": tool.get("name"),
                "title": tool.get("title") or tool.get("name"),
                "description": description if isinstance(description, str) else "",
                "annotations": tool.get("annotations") or {},
                "server": server if isinstance(server, str) else "",
                "score": round(score, 4) if math.isfinite(score) else 0.0,
            }
        )
    structured = {"tools": tools}
    return {
        "content": [{"type": "text", "text": json.dumps(structured, ensure_ascii=False)}],
        "structuredContent": structured,
    }
