"""How much of a server's listing is served: at most so many tools, none with a text longer than the cap.

Every tool a server lists is resolved, scanned and pinned, and every text in
it is read; a server that lists 10,000 tools, or one description of a
megabyte, would make the gateway spend its time on it. `served` takes the
first `most` tools as listed and, of those, leaves out each tool with a text
(any string: description, title, a schema's words, a name) longer than
`text_length` characters, a definition larger than `DEFINITION_BYTES` of
JSON, or one nested deeper than `DEPTH` levels; what it leaves out it says,
in lines for the server's `listing_problems`. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["DEFINITION_BYTES", "DEPTH", "PROBLEM_LINES", "served"]

DEFINITION_BYTES = 262_144
"""Bytes of one tool's JSON at most (the largest of the 661 corpus tools is 82 KB: a search tool's schema)."""
DEPTH = 64
"""Levels of nesting of one definition at most."""
PROBLEM_LINES = 20
"""Lines said about tools left out, per server; the rest are counted in one more."""


def _too_long(raw: Mapping[str, Any], text_length: int) -> str | None:
    """Why a definition is not served (a text too long, nested too deep), or None; iterative, so any depth is safe."""
    stack: list[tuple[Any, str, int]] = [(raw, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            if len(value) > text_length:
                return (
                    f"its text at {path or '(the tool)'} is {len(value):,} characters long, more than the "
                    f"{text_length:,} served (limits.textLength)"
                )
        elif isinstance(value, Mapping | list):
            if depth >= DEPTH:
                return f"it is nested deeper than {DEPTH} levels (at {path})"
            items = value.items() if isinstance(value, Mapping) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and len(key) > text_length:
                    return f"a key at {path or '(the tool)'} is {len(key):,} characters long, more than {text_length:,}"
                stack.append((item, f"{path}.{key}" if isinstance(key, str) else f"{path}[{key}]", depth + 1))
    return None


def served(tools: Sequence[Any], *, most: int, text_length: int) -> tuple[list[Any], list[str]]:
    """The tools of a listing that are served, and what is said of those left out.

    Args:
        tools: the definitions as the server listed them, in its order.
        most: tools served at most (`limits.toolsPerServer`); the first ones listed are.
        text_length: characters of any one text at most (`limits.textLength`).
    """
    kept: list[Any] = []
    problems: list[str] = []
    left_out = 0
    for raw in tools[:most]:
        why = None
        if isinstance(raw, Mapping):
            why = _too_long(raw, text_length)
            if why is None:
                try:
                    size = len(json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode())
                except (TypeError, ValueError):
                    size = 0
                if size > DEFINITION_BYTES:
                    why = f"its definition is {size:,} bytes of JSON, more than the {DEFINITION_BYTES:,} served"
        if why is None:
            kept.append(raw)
            continue
        left_out += 1
        if len(problems) < PROBLEM_LINES:
            name = raw.get("name") if isinstance(raw, Mapping) else None
            problems.append(f"tool {str(name)[:100]!r} is not served: {why}")
    if left_out > PROBLEM_LINES:
        problems.append(f"{left_out - PROBLEM_LINES} more tools are not served for the same reasons")
    if len(tools) > most:
        problems.insert(
            0,
            f"it lists {len(tools):,} tools, more than the {most:,} served per server (limits.toolsPerServer): "
            f"the {len(tools) - most:,} listed after the first {most:,} are not served",
        )
    return kept, problems
