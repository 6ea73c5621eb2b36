"""Tools as hintgate sees them: parsed, inferred, overridden and resolved.

Pure functions over sequences of tools. A tool arrives as the JSON object its
source listed; `resolve_tool` reads its annotations leniently (nothing lost),
runs inference on its name, description and input schema, applies operator
overrides and the trust rule, and returns a `ResolvedTool` that can say where
each hint came from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hintgate.annotations import (
    Annotations,
    Hint,
    Inferred,
    ParsedAnnotations,
    Resolution,
    Tier,
    parse_annotations,
    resolve,
)
from hintgate.inference import infer

__all__ = [
    "NAME_CHARS",
    "NAME_MAX",
    "NAME_MAX_STRICT",
    "ResolvedTool",
    "name_problems",
    "resolve_tool",
    "tier_counts",
]

NAME_CHARS = re.compile(r"^[A-Za-z0-9_.\-]+$")
"""The characters the MCP spec (2025-11-25, "Tool names") allows in a tool name."""
NAME_MAX = 128
"""The spec's upper bound on a tool name's length (SHOULD)."""
NAME_MAX_STRICT = 64
"""The stricter bound the official conformance suite and several clients enforce."""


@dataclass(frozen=True, slots=True)
class ResolvedTool:
    """One tool with its hints resolved.

    Attributes:
        name: the tool's name as listed.
        raw: the JSON object the source listed, untouched.
        parsed: its `annotations` read leniently (extra keys and bad values kept).
        resolution: hints in force with provenance, declared and inferred beside them.
    """

    name: str
    raw: Mapping[str, Any]
    parsed: ParsedAnnotations
    resolution: Resolution

    @property
    def title(self) -> str | None:
        """`Tool.title`, else `annotations.title`, else `None`."""
        title = self.raw.get("title")
        if isinstance(title, str) and title:
            return title
        return self.resolution.title

    @property
    def display_name(self) -> str:
        """The title when there is one, else the name."""
        return self.title or self.name

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
            "tier": self.tier.value,
            "annotations": resolution.to_mcp(),
            "provenance": resolution.provenance(),
            "declared": self.declared.to_mcp(),
            "inferred": {h.value: {"value": i.value, "rule": i.rule} for h, i in resolution.inferred.items()},
        }


def resolve_tool(
    raw: Mapping[str, Any],
    *,
    trusted: bool = False,
    overrides: Mapping[Hint, bool] | None = None,
    title_override: str | None = None,
    profile: str | None = None,
    http_method: str | None = None,
    ignore_declared: bool = False,
    declared: ParsedAnnotations | None = None,
) -> ResolvedTool:
    """Resolve one tool's hints.

    Args:
        raw: the tool's JSON object as listed (`name`, `description`, `inputSchema`, `annotations`...).
        trusted: whether the source's declared hints are trusted (DESIGN.md, "Trust").
        overrides: operator values per hint; they win over everything.
        title_override: an operator's annotation title.
        profile: the HTTP-method inference profile (for tools of HTTP APIs).
        http_method: the HTTP method behind the tool, when there is one.
        ignore_declared: resolve as if the source declared nothing (how inference is measured).
        declared: annotations parsed already (e.g. an OpenAPI `x-mcp-annotations`); read from `raw` otherwise.

    Raises:
        HintTypeError: `raw["annotations"]` is present but not an object.
    """
    name = str(raw.get("name", ""))
    if declared is None:
        declared = parse_annotations(raw.get("annotations"), tool=name)
    description = raw.get("description")
    schema = raw.get("inputSchema")
    inferred: dict[Hint, Inferred] = infer(
        name,
        description if isinstance(description, str) else None,
        schema if isinstance(schema, Mapping) else None,
        http_method=http_method,
        profile=profile,
    )
    resolution = resolve(
        declared=Annotations() if ignore_declared else declared.annotations,
        inferred=inferred,
        overrides=overrides,
        title_override=title_override,
        trusted=trusted,
    )
    return ResolvedTool(name=name, raw=raw, parsed=declared, resolution=resolution)


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
