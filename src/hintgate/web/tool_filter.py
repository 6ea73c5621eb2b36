"""Which tools a reader asked for: one filter for `GET /api/tools` and the catalog page.

Every filter given must hold (none given: every tool). Hints are compared with
the value in force, provenance with the origin of any of the four hints
(`declared`, `override`, `inferred`, `default`), tags must all be present, and
the text is looked for, ignoring case, in the name, title, description,
category and tags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, get_args

from hintgate.hints.annotations import Hint

if TYPE_CHECKING:
    from hintgate.web.api import Tool

__all__ = ["ORIGINS", "TRUST_LEVELS", "Origin", "ToolFilter", "TrustLevel"]

Origin = Literal["declared", "override", "inferred", "default"]
TrustLevel = Literal["trusted", "local", "untrusted"]
ORIGINS: tuple[str, ...] = get_args(Origin)
"""Where a hint's value may come from, as provenance says it (an inferred one with its rule after `:`)."""
TRUST_LEVELS: tuple[str, ...] = get_args(TrustLevel)


@dataclass(frozen=True, slots=True)
class ToolFilter:
    """The filters a reader gave (None or empty: not filtering by it).

    Attributes:
        tier: the tool's tier.
        server: its source.
        q: text in its name, title, description, category or tags.
        category: its category (a Python registry's), exactly.
        tags: tags it carries, every one.
        hints: hint → the value it must have in force.
        trust: its server's trust level.
        provenance: an origin one of its hints has.
    """

    tier: str | None = None
    server: str | None = None
    q: str | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    hints: Mapping[Hint, bool] = field(default_factory=dict)
    trust: str | None = None
    provenance: str | None = None

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return any((self.tier, self.server, self.q, self.category, self.tags, self.hints, self.trust, self.provenance))

    def matches(self, tool: Tool) -> bool:
        """Whether `tool` (the API's view of it) passes every filter given."""
        if self.tier is not None and tool.tier != self.tier:
            return False
        if self.server is not None and tool.server != self.server:
            return False
        if self.category is not None and tool.category != self.category:
            return False
        if self.tags and not set(self.tags) <= set(tool.tags):
            return False
        annotations = tool.annotations.model_dump()
        if any(annotations[hint.value] is not value for hint, value in self.hints.items()):
            return False
        if self.trust is not None and tool.trust != self.trust:
            return False
        if self.provenance is not None and all(
            origin.partition(":")[0] != self.provenance for origin in tool.provenance.values()
        ):
            return False
        if self.q:
            text = " ".join(filter(None, (tool.name, tool.title, tool.description, tool.category, *tool.tags)))
            if self.q.lower() not in text.lower():
                return False
        return True
