"""The Tool Resolution extension (`io.modelcontextprotocol/tool-resolution`) as an upstream speaks it.

hintgate declares the extension in its `initialize` capabilities upstream (the
handshake era, which is how it reaches every upstream), so a server that
supports it marks its resolvable tools (`_meta[RESOLUTION].resolvable`) and
answers `tools/resolve` for them. `answer_hints` checks an answer as the
draft says a client must: a complete result of the tool's name with the
four hints as booleans, within the conservative bound of the tool's static
annotations (core defaults applied); anything else is a resolution failure
and the static hints stand. How far a valid answer is believed is the
policy's business (`hints.calls.bound.weigh_upstream`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hintgate.hints.annotations import SPEC_DEFAULTS, Hint

__all__ = ["RESOLUTION", "answer_hints", "marked", "offers_resolution"]

RESOLUTION = "io.modelcontextprotocol/tool-resolution"
"""The extension's identifier: in capabilities' `extensions`, and the key of a tool's marker in its `_meta`."""


def offers_resolution(capabilities: Mapping[str, Any] | None) -> bool:
    """Whether a server's `initialize` capabilities offer the extension (an empty settings object)."""
    extensions = capabilities.get("extensions") if isinstance(capabilities, Mapping) else None
    settings = extensions.get(RESOLUTION) if isinstance(extensions, Mapping) else None
    # A non-empty settings object is a revision this one does not know: unsupported, as the draft says.
    return isinstance(settings, Mapping) and not settings


def marked(tool: Mapping[str, Any]) -> bool:
    """Whether a listed tool carries the marker `_meta["io.modelcontextprotocol/tool-resolution"].resolvable`."""
    meta = tool.get("_meta")
    marker = meta.get(RESOLUTION) if isinstance(meta, Mapping) else None
    return isinstance(marker, Mapping) and marker.get("resolvable") is True


def answer_hints(answer: Any, *, name: str, static: Mapping[str, Any] | None) -> dict[Hint, bool] | str:
    """The four hints of a valid `tools/resolve` answer, or why it is not one (a resolution failure).

    Args:
        answer: the result as received.
        name: the tool's name as the server lists it.
        static: the tool's `annotations` as the server listed them.
    """
    if not isinstance(answer, Mapping):
        return "the answer is not an object"
    if answer.get("name") != name:
        return f"the answer names another tool ({answer.get('name')!r})"
    if answer.get("resultType", "complete") != "complete":
        return "the answer is not complete"
    annotations = answer.get("annotations")
    if not isinstance(annotations, Mapping):
        return "the answer has no annotations"
    hints: dict[Hint, bool] = {}
    for hint in Hint:
        value = annotations.get(hint.value)
        if not isinstance(value, bool):
            return f"the answer's {hint.value} is not a boolean"
        hints[hint] = value
    declared = {h: (static or {}).get(h.value) for h in Hint}
    bound = {h: v if isinstance(v, bool) else SPEC_DEFAULTS[h] for h, v in declared.items()}
    if bound[Hint.READ_ONLY] and not hints[Hint.READ_ONLY]:
        return "the tool is listed read-only, the answer is not"
    if not bound[Hint.READ_ONLY] and not hints[Hint.READ_ONLY]:
        if not bound[Hint.DESTRUCTIVE] and hints[Hint.DESTRUCTIVE]:
            return "the tool is listed not destructive, the answer is destructive"
        if bound[Hint.IDEMPOTENT] and not hints[Hint.IDEMPOTENT]:
            return "the tool is listed idempotent, the answer is not"
    if not bound[Hint.OPEN_WORLD] and hints[Hint.OPEN_WORLD]:
        return "the tool is listed closed world, the answer is open world"
    return hints
