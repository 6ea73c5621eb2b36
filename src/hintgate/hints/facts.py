"""What a source knows about a tool besides the JSON object it listed: the resolver's other inputs.

Apart from the catalog (`hintgate.hints.catalog`, which resolves with them) so that the sources and the config
read it without the resolver, its inference and the call judges: a gateway spawns its upstreams before it loads
those, and the start waits less.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from hintgate.hints.annotations import Hint, ParsedAnnotations

__all__ = ["ToolFacts"]


@dataclass(frozen=True, slots=True)
class ToolFacts:
    """What a tool's source knows about it beyond its JSON object: the resolver's other inputs.

    Attributes:
        declared: annotations parsed already, for sources that declare them
            elsewhere than in `annotations` (an OpenAPI `x-mcp-annotations`);
            `None` reads them from the tool's `annotations`.
        http_method: the HTTP method behind the tool, for method-based inference.
        overrides: the operator's hint values from the config file.
        title: the operator's title from the config file.
        category: the tool's category, from a source that files its tools (a Python registry).
        tags: the tool's tags, from such a source.
    """

    declared: ParsedAnnotations | None = None
    http_method: str | None = None
    overrides: Mapping[Hint, bool] = field(default_factory=dict)
    title: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
