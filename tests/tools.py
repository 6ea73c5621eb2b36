"""Tool definitions as an upstream lists them, for tests that feed tools to the catalog, lint, pins and scans."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def tool(
    name: str,
    description: str | None = None,
    *,
    schema: Mapping[str, Any] | None = None,
    annotations: Any = None,
    **extra: Any,
) -> dict[str, Any]:
    """A `tools/list` entry: `name`, the `description` when given, `schema` as its input schema (an object's
    unless given), the `annotations` as given, and any `extra` keys (`title`, `_meta`...)."""
    raw: dict[str, Any] = {"name": name}
    if description is not None:
        raw["description"] = description
    raw["inputSchema"] = dict(schema) if schema is not None else {"type": "object"}
    if annotations is not None:
        raw["annotations"] = annotations  # as given: a test may hand in a malformed value
    return {**raw, **extra}
