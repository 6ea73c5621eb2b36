"""Views: the part of the catalog one MCP endpoint serves, chosen by risk, server, name, tag and trust.

A view is named in the config (`views:`) and served as its own endpoint
(`/mcp/NAME` over HTTP, `serve --view NAME` over stdio). It filters what its
clients are told (`tools/list`, `search_tools`) and what they may call
(`tools/call`, `call_tool`): a tool outside it is an unknown tool there. Each
key given narrows the view (a tool must match every one), and a key's values
widen it (any one of them will do): `{tiers: [read-only], servers: [git, time]}`
is the read-only tools of those two servers.

The built-in view `read-only` holds every tool whose readOnly hint in force
(after overrides, inference and trust) is true, for clients in a planning or
research mode that must not change anything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hintgate.hints.annotations import Hint, Tier
from hintgate.hints.names import names_match
from hintgate.hints.trust import Trust

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry

__all__ = ["BUILTIN_VIEWS", "READ_ONLY", "VIEW_NAME", "View", "views_json"]

VIEW_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""What a view may be called: one path segment of `/mcp/NAME` (letters, digits, `_ . -`, at most 64)."""


@dataclass(frozen=True, slots=True)
class View:
    """One view of the catalog.

    Attributes:
        name: its name (the endpoint is `/mcp/NAME`).
        tiers: tools of these tiers only (None: any).
        servers: tools of these servers only (None: any).
        tools: tools whose public name (or name at its server) matches one of these globs (None: any).
        tags: tools carrying at least one of these tags (None: any; a tool without tags matches none).
        trust: tools of servers at these trust levels only (None: any).
        read_only: tools whose readOnly hint in force is true only (the built-in `read-only` view).
    """

    name: str
    tiers: frozenset[Tier] | None = None
    servers: frozenset[str] | None = None
    tools: tuple[str, ...] | None = None
    tags: frozenset[str] | None = None
    trust: frozenset[Trust] | None = None
    read_only: bool = False

    def admits(self, entry: CatalogEntry) -> bool:
        """Whether the tool belongs to this view."""
        if self.read_only and entry.tool.resolution.hints[Hint.READ_ONLY].value is not True:
            return False
        if self.tiers is not None and entry.tier not in self.tiers:
            return False
        if self.servers is not None and entry.server not in self.servers:
            return False
        if self.tools is not None and not names_match(self.tools, entry.name, entry.upstream_name):
            return False
        if self.tags is not None and self.tags.isdisjoint(entry.tags):
            return False
        return self.trust is None or entry.tool.resolution.trust in self.trust

    def to_json(self) -> dict[str, Any]:
        """The view as the config spells it (keys given only), JSON-ready."""
        out: dict[str, Any] = {"name": self.name}
        if self.read_only:
            out["readOnly"] = True
        if self.tiers is not None:
            out["tiers"] = sorted(t.value for t in self.tiers)
        if self.servers is not None:
            out["servers"] = sorted(self.servers)
        if self.tools is not None:
            out["tools"] = list(self.tools)
        if self.tags is not None:
            out["tags"] = sorted(self.tags)
        if self.trust is not None:
            out["trust"] = sorted(t.value for t in self.trust)
        return out


READ_ONLY = View("read-only", read_only=True)
"""The built-in view of every read-only tool."""
BUILTIN_VIEWS: Mapping[str, View] = {READ_ONLY.name: READ_ONLY}
"""The views every gateway serves, by name; a config may not define one of these names."""


def views_json(views: Mapping[str, View]) -> list[dict[str, Any]]:
    """Every view, built-in ones first, JSON-ready."""
    return [v.to_json() for v in {**BUILTIN_VIEWS, **views}.values()]
