"""Tools a person should look at: hints on thin evidence, tools that run what they are given.

Inference is right most of the time, but some of its answers rest on little:
the riskier value was taken because strong evidence disagreed, or a safe
value came only from the description because the name has no action verb.
And some tools do whatever their arguments say (a ``sql`` or ``command``
parameter), so no hint about the tool can say what one call will do. Both
are worth an operator's override; `hintgate lint` reports them (HG306,
HG307) and the dashboard marks them "needs review".
"""

from __future__ import annotations

from dataclasses import dataclass

from hintgate.hints.annotations import CAUTIOUS, Hint, Origin, Strength
from hintgate.hints.catalog import ResolvedTool
from hintgate.hints.inference import execution_surface
from hintgate.hints.inference.schema import EXEC_SURFACE

__all__ = ["ReviewReason", "review_reasons"]


@dataclass(frozen=True, slots=True)
class ReviewReason:
    """Why a tool needs review.

    Attributes:
        code: the lint code (``HG306`` thin evidence, ``HG307`` runs caller-supplied code).
        message: what was found, in words.
        hint: the hint concerned, if one is.
    """

    code: str
    message: str
    hint: Hint | None = None


def review_reasons(tool: ResolvedTool) -> list[ReviewReason]:
    """Why `tool` needs a person's review (empty when it does not)."""
    reasons: list[ReviewReason] = []
    resolution = tool.resolution
    for hint, resolved in resolution.hints.items():
        if resolved.provenance.origin is not Origin.INFERRED:
            continue
        found = resolution.inferred.get(hint)
        if found is None or found.value != resolved.value:
            continue
        safe = resolved.value != CAUTIOUS[hint]
        if found.rule == EXEC_SURFACE:
            continue  # said once, below (HG307)
        if found.why:
            reasons.append(
                ReviewReason("HG306", f"{hint.value} {str(found.value).lower()}: evidence disagreed, {found.why}", hint)
            )
        elif safe and found.strength is Strength.WEAK:
            reasons.append(ReviewReason("HG306", f"{hint.value} rests only on weak evidence ({found.rule})", hint))
        elif safe and hint is Hint.READ_ONLY and found.rule.startswith("desc."):
            reasons.append(
                ReviewReason(
                    "HG306",
                    f"read-only rests only on the description ({found.rule}): the name has no action verb",
                    hint,
                )
            )
    param = execution_surface(tool.name, tool.description, _schema(tool))
    if param is not None:
        reasons.append(
            ReviewReason(
                "HG307",
                f"runs caller-supplied code or queries (parameter {param!r}): "
                "what a call does depends on its arguments",
                Hint.READ_ONLY,
            )
        )
    return reasons


def _schema(tool: ResolvedTool) -> dict[str, object] | None:
    schema = tool.raw.get("inputSchema")
    return dict(schema) if isinstance(schema, dict) else None
