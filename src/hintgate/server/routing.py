"""Prompts and resources: which source serves each, and paging of the gateway's list results.

Tools have their catalog (`hintgate.hints.catalog`); prompts are renamed with
their source's prefix like tools, while resource URIs are addresses that tool
results and clients quote, so they are not renamed: the first source to list
a URI owns it, and a URI no source listed goes to the source whose template
matches it.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hintgate.hints.catalog import public_name
from hintgate.server.errors import UnknownName, to_mcp_error
from hintgate.sources.base import Source
from hintgate.sources.capabilities import ServesPrompts

__all__ = ["PAGE_SIZE", "Routed", "Routes", "list_page"]

PAGE_SIZE = 500
"""Items per page of the gateway's own list results."""


def list_page(items: Sequence[Mapping[str, Any]], key: str, params: Any) -> dict[str, Any]:
    """One page of a list result, with an opaque cursor for the next.

    Args:
        items: everything there is to list.
        key: the result's key (`tools`, `prompts`...).
        params: the request's params, raw (a mapping) or an SDK model with `cursor`.
    """
    cursor = getattr(params, "cursor", None) if not isinstance(params, Mapping) else params.get("cursor")
    start = 0
    if cursor:
        try:
            start = int(base64.urlsafe_b64decode(cursor.encode()).decode())
            if start < 0:
                raise ValueError(start)  # a negative offset would page from the end
        except (ValueError, UnicodeDecodeError):
            raise to_mcp_error(UnknownName(f"invalid cursor {cursor!r}")) from None
    end = start + PAGE_SIZE
    result: dict[str, Any] = {key: list(items[start:end])}
    if end < len(items):
        result["nextCursor"] = base64.urlsafe_b64encode(str(end).encode()).decode()
    return result


@dataclass(frozen=True, slots=True)
class Routed:
    """A prompt as the gateway lists it, and where it really lives."""

    server: str
    upstream_name: str
    wire: Mapping[str, Any]


def _keyed(items: Iterable[Mapping[str, Any]], key: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each listed item whose `key` (a prompt's name, a resource's URI) is a string, with it; others are not routed."""
    for raw in items:
        value = raw.get(key)
        if isinstance(value, str):
            yield value, raw


class Routes:
    """The prompts, resources and resource templates of the sources that are up."""

    def __init__(self) -> None:
        self.prompts: dict[str, Routed] = {}
        self.resources: dict[str, str] = {}
        self.templates: list[tuple[str, Mapping[str, Any]]] = []

    def rebuild_prompts(self, up: Iterable[Source]) -> None:
        """Route each public prompt name to its source (the first source to list a name keeps it)."""
        prompts: dict[str, Routed] = {}
        for source in up:
            if not isinstance(source, ServesPrompts):
                continue
            for name, raw in _keyed(source.prompts, "name"):
                public = public_name(source.prefix, name, limit=128)
                prompts.setdefault(public, Routed(source.name, name, {**raw, "name": public}))
        self.prompts = prompts

    def rebuild_resources(self, up: Iterable[Source]) -> None:
        """Route each resource URI and template to its source."""
        resources: dict[str, str] = {}
        templates: list[tuple[str, Mapping[str, Any]]] = []
        for source in up:
            if not isinstance(source, ServesPrompts):
                continue
            for uri, _raw in _keyed(source.resources, "uri"):
                resources.setdefault(uri, source.name)
            templates.extend((source.name, raw) for raw in source.resource_templates)
        self.resources = resources
        self.templates = templates

    def prompt(self, name: str) -> Routed:
        """The route of a public prompt name.

        Raises:
            MCPError: no source lists it (invalid params).
        """
        routed = self.prompts.get(name)
        if routed is None:
            raise to_mcp_error(UnknownName(f"Unknown prompt: {name}"))
        return routed

    def resource_server(self, uri: str) -> str:
        """The source serving a resource URI.

        Raises:
            MCPError: no source listed it, no template matches and more than one source has resources.
        """
        server = self.resources.get(uri)
        if server is not None:
            return server
        for name, template in self.templates:
            pattern = template.get("uriTemplate")
            if isinstance(pattern, str) and _template_matches(pattern, uri):
                return name
        servers = {name for name, _ in self.templates} | set(self.resources.values())
        if len(servers) == 1:
            return next(iter(servers))
        raise to_mcp_error(UnknownName(f"Unknown resource: {uri}"))


def _template_matches(template: str, uri: str) -> bool:
    """Whether `uri` could come from an RFC 6570 level-1 template (`file:///{path}`)."""
    parts = re.split(r"\{[^}]*\}", template)
    pattern = "(.+?)".join(re.escape(p) for p in parts)
    return re.fullmatch(pattern, uri) is not None
