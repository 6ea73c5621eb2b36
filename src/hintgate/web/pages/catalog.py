"""The catalog page: every tool as a card, grouped by what it may do, filters, counts per tier, and hint origins."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from hintgate.hints.annotations import Hint, Tier
from hintgate.policy.explain import explain
from hintgate.web import api
from hintgate.web.badges import (
    HINT_NAMES,
    TIER_LABELS,
    Badge,
    HintSummary,
    first_call_badge,
    hint_badges,
    hint_summaries,
    tier_badge,
)
from hintgate.web.pages.frame import Choice, Layout, layout
from hintgate.web.tool_filter import ORIGINS, TRUST_LEVELS, ToolFilter

if TYPE_CHECKING:
    from hintgate.hints.catalog import CatalogEntry
    from hintgate.server.discovery import ListingCost
    from hintgate.server.gateway import Gateway

__all__ = [
    "GROUPS",
    "HINT_FILTERS",
    "TIERS",
    "CatalogFilters",
    "CatalogPage",
    "CoverageRow",
    "FirstCall",
    "TierCount",
    "ToolCard",
    "ToolGroup",
    "catalog_page",
    "first_calls",
    "group_cards",
    "tool_card",
]

TIERS: tuple[str, ...] = tuple(t.value for t in Tier)


@dataclass(frozen=True, slots=True)
class FirstCall:
    """What the policy in force does to a tool's first call in a fresh session, and why.

    Attributes:
        verdict: allow, ask or deny.
        badge: the verdict as a badge.
        reason: the policy's own reason, as a person is told it.
        mode: the mode in force (the verdict is this mode's).
    """

    verdict: str
    badge: Badge
    reason: str
    mode: str


def first_calls(gateway: Gateway, entries: Sequence[CatalogEntry]) -> dict[str, FirstCall]:
    """Tool name → what the mode in force does to its first call (`policy.explain`'s dry run, no arguments)."""
    policy = gateway.policy.current()
    settings, rules = policy.settings, policy.rules
    out: dict[str, FirstCall] = {}
    for row in explain(entries, settings, rules, (settings.mode,)):
        decision = row.decisions[settings.mode]
        verdict = decision.verdict.value
        out[row.tool] = FirstCall(verdict, first_call_badge(verdict), decision.reason, settings.mode.value)
    return out


@dataclass(frozen=True, slots=True)
class ToolCard:
    """A tool as the catalog lists it.

    Attributes:
        name: the public name.
        title: the title, or the name when it has none.
        has_title: whether `title` is a real title (else the name is shown once).
        server: the source it comes from.
        description: its description, if any.
        tier: the tier's value ("read-only"...).
        tier_badge: the tier as a badge, when the hint badges do not already say it.
        badges: the hint badges.
        hints: all four hints with value and origin (the detail line).
        href: the tool page.
        review: why the tool needs review (empty when it does not).
        title_provenance: where the title came from ("derived": the name in sentence case).
        usage: its recorded calls in a line ("3 calls, 1 failed, last ..., p50 2.1 ms"); None when none.
        first_call: what the mode in force does to its first call in a session, and why.
        category: its category (a Python registry's), if any.
        tags: its tags (a Python registry's).
        trust: its server's trust level.
    """

    name: str
    title: str
    has_title: bool
    server: str
    description: str | None
    tier: str
    tier_badge: Badge | None
    badges: list[Badge]
    hints: list[HintSummary]
    href: str
    review: list[str]
    title_provenance: str = "declared"
    usage: str | None = None
    first_call: FirstCall | None = None
    category: str | None = None
    tags: tuple[str, ...] = ()
    trust: str = "untrusted"


@dataclass(frozen=True, slots=True)
class ToolGroup:
    """The tools of one kind of operation, as the catalog lists them under one heading.

    Attributes:
        key: `safe`, `modifying` or `destructive`.
        heading: the heading ("Safe operations"...).
        note: what the tools under it may do, in a sentence.
        tools: its cards, in catalog order.
    """

    key: str
    heading: str
    note: str
    tools: list[ToolCard]


GROUPS: tuple[tuple[str, str, str, frozenset[str]], ...] = (
    # (key, heading, note, tiers): every tier is in exactly one group. A tool whose hints say
    # nothing (unknown) counts as destructive, as the MCP defaults and the policy treat it.
    ("safe", "Safe operations", "Read-only: they do not change anything.", frozenset({Tier.READ_ONLY.value})),
    (
        "modifying",
        "Modifying operations",
        "They write, but only add: nothing is deleted or overwritten.",
        frozenset({Tier.ADDITIVE.value}),
    ),
    (
        "destructive",
        "Destructive operations",
        "They may delete or overwrite, or nothing says what they do.",
        frozenset({Tier.DESTRUCTIVE.value, Tier.UNKNOWN.value}),
    ),
)
"""The catalog's groups by what a tool's tier lets it do, in the order they are shown."""


def group_cards(cards: Sequence[ToolCard]) -> list[ToolGroup]:
    """`cards` grouped as `GROUPS` says, each group in catalog order; empty groups are left out."""
    groups = [
        ToolGroup(key, heading, note, [card for card in cards if card.tier in tiers])
        for key, heading, note, tiers in GROUPS
    ]
    return [group for group in groups if group.tools]


@dataclass(frozen=True, slots=True)
class TierCount:
    """How many tools a tier has, and the link that filters by it."""

    tier: str
    label: str
    count: int
    href: str
    selected: bool


@dataclass(frozen=True, slots=True)
class CoverageRow:
    """Where one hint's values came from, counted over every tool."""

    hint: str
    name: str
    declared: int
    inferred: int
    override: int
    default: int
    distrusted: int


HINT_FILTERS: tuple[tuple[str, Hint], ...] = (
    ("readOnly", Hint.READ_ONLY),
    ("destructive", Hint.DESTRUCTIVE),
    ("idempotent", Hint.IDEMPOTENT),
    ("openWorld", Hint.OPEN_WORLD),
)
"""The catalog's hint filters: query parameter → hint (the same names as `GET /api/tools`)."""


@dataclass(frozen=True, slots=True)
class CatalogFilters:
    """The catalog's filters as given: those of `GET /api/tools` (`tools`, one tag at most), and `review`."""

    tools: ToolFilter = dataclasses.field(default_factory=ToolFilter)
    review: bool = False
    """Only tools that need review."""

    @property
    def active(self) -> bool:
        """Whether any filter is set."""
        return self.review or self.tools.active

    @property
    def tag(self) -> str | None:
        """The tag filtered by, if any."""
        return self.tools.tags[0] if self.tools.tags else None

    def query(self, **changed: str | None) -> str:
        """The catalog's URL with these filters, some `changed` (None takes one off)."""
        tools = self.tools
        pairs: dict[str, str | None] = {
            "tier": tools.tier,
            "server": tools.server,
            "q": tools.q,
            "review": "1" if self.review else None,
            "category": tools.category,
            "tag": self.tag,
            **{name: str(tools.hints[hint]).lower() for name, hint in HINT_FILTERS if hint in tools.hints},
            "trust": tools.trust,
            "provenance": tools.provenance,
        }
        pairs.update(changed)
        given = {k: v for k, v in pairs.items() if v}
        return "/?" + urlencode(given) if given else "/"


@dataclass(frozen=True, slots=True)
class CatalogPage:
    """The catalog: every tool, filters, counts per tier, hint coverage."""

    layout: Layout
    tools: list[ToolCard]
    total: int
    filters: CatalogFilters
    tiers: list[TierCount]
    tier_choices: list[Choice]
    server_choices: list[Choice]
    coverage: list[CoverageRow]
    any_declared: int
    any_inferred: int
    all_default: int
    problems: tuple[str, ...] = ()
    """Names the catalog had to change (a collision, invalid characters, length)."""
    held: int = 0
    """Tools quarantined until an operator accepts them (see the Changes page)."""
    hidden: int = 0
    """Of those, the ones hidden from clients (`integrity.onChange: hide`)."""
    mode: str = "default"
    """The policy mode in force: each card's first-call verdict is this mode's."""
    category_choices: list[Choice] = dataclasses.field(default_factory=list)
    """The categories the catalog's tools have (empty: none has one)."""
    tag_choices: list[Choice] = dataclasses.field(default_factory=list)
    """The tags the catalog's tools carry (empty: none carries one)."""
    hint_choices: list[tuple[str, str, list[Choice]]] = dataclasses.field(default_factory=list)
    """Per hint filter: (query parameter, label, choices: any, yes, no)."""
    trust_choices: list[Choice] = dataclasses.field(default_factory=list)
    provenance_choices: list[Choice] = dataclasses.field(default_factory=list)
    listing: list[ListingCost] = dataclasses.field(default_factory=list)
    """What `tools/list` costs a client in each search mode, of the tools this reader sees (empty: not shown)."""

    @property
    def groups(self) -> list[ToolGroup]:
        """The tools shown, grouped into safe, modifying and destructive operations."""
        return group_cards(self.tools)


def tool_card(tool: api.Tool, first_call: FirstCall | None = None) -> ToolCard:
    """A catalog card from the API's view of a tool, with what its first call gets when known."""
    annotations = tool.annotations.model_dump()
    return ToolCard(
        name=tool.name,
        title=tool.title or tool.name,
        has_title=bool(tool.title),
        server=tool.server,
        description=tool.description,
        tier=tool.tier,
        tier_badge=tier_badge(tool.tier),
        badges=hint_badges(annotations, tool.provenance),
        hints=hint_summaries(annotations, tool.provenance, tool.distrusted, tool.trust),
        href=f"/tools/{tool.name}",
        review=tool.review,
        title_provenance=tool.title_provenance,
        first_call=first_call,
        category=tool.category,
        tags=tuple(tool.tags),
        trust=tool.trust,
    )


def _coverage(tools: Sequence[api.Tool]) -> list[CoverageRow]:
    rows = []
    for hint in Hint:
        origins = [t.provenance.get(hint.value, "default").partition(":")[0] for t in tools]
        rows.append(
            CoverageRow(
                hint=hint.value,
                name=HINT_NAMES[hint],
                declared=origins.count("declared"),
                inferred=origins.count("inferred"),
                override=origins.count("override"),
                default=origins.count("default"),
                distrusted=sum(1 for t in tools if hint.value in t.distrusted),
            )
        )
    return rows


def usage_line(used: Mapping[str, Any] | None) -> str | None:
    """A tool's recorded calls in a line, from `Store.tool_usage`; None when it was never called."""
    if not used or not used.get("calls"):
        return None
    calls, errors = int(used["calls"]), int(used.get("errors") or 0)
    parts = [f"{calls} call{'s' if calls != 1 else ''}"]
    if errors:
        parts.append(f"{errors} failed")
    # A refusal or an unanswered question is the policy working, not the tool failing: counted apart.
    if used.get("denied"):
        parts.append(f"{int(used['denied'])} denied")
    if used.get("expired"):
        parts.append(f"{int(used['expired'])} expired unanswered")
    if used.get("last_used"):
        parts.append(f"last {str(used['last_used'])[:19].replace('T', ' ')} UTC")
    if used.get("p50_ms") is not None:
        parts.append(f"p50 {float(used['p50_ms']):.1f} ms")
    return ", ".join(parts)


def catalog_page(
    gateway: Gateway,
    filters: CatalogFilters,
    usage: Mapping[str, Mapping[str, Any]] | None = None,
    visible: Callable[[CatalogEntry], bool] | None = None,
) -> CatalogPage:
    """The catalog page, filtered; `usage` (from `Store.tool_usage`) adds each tool's recorded calls; only the
    tools `visible` keeps when given (a person's: those their rules leave them)."""
    entries = [e for e in gateway.tools() if visible is None or visible(e)]
    everything = [api.tool_out(gateway, entry) for entry in entries]
    wanted = filters.tools
    shown = [t for t in everything if wanted.matches(t) and (not filters.review or t.review)]
    counts = dict.fromkeys(TIERS, 0)
    for t in everything:
        counts[t.tier] += 1

    def link(tier: str | None) -> str:
        return filters.query(tier=tier)

    categories = sorted({t.category for t in everything if t.category})
    tags = sorted({tag for t in everything for tag in t.tags})

    servers = sorted(gateway.sources)
    shown_names = {t.name for t in shown}
    verdicts = first_calls(gateway, [e for e in entries if e.name in shown_names])
    origins = [{o.partition(":")[0] for o in t.provenance.values()} for t in everything]
    return CatalogPage(
        layout=layout(gateway, "Catalog", "catalog"),
        tools=[
            dataclasses.replace(tool_card(t, verdicts.get(t.name)), usage=usage_line((usage or {}).get(t.name)))
            for t in shown
        ],
        mode=gateway.policy.current().settings.mode.value,
        total=len(everything),
        filters=filters,
        tiers=[
            # The selected tier's link takes the filter off again.
            TierCount(
                tier,
                TIER_LABELS[tier],
                counts[tier],
                link(None if wanted.tier == tier else tier),
                wanted.tier == tier,
            )
            for tier in TIERS
        ],
        tier_choices=[Choice("", "Every tier", wanted.tier is None)]
        + [Choice(t, TIER_LABELS[t], wanted.tier == t) for t in TIERS],
        server_choices=[Choice("", "Every server", wanted.server is None)]
        + [Choice(s, s, wanted.server == s) for s in servers],
        category_choices=[Choice("", "Every category", wanted.category is None)]
        + [Choice(c, c, wanted.category == c) for c in categories]
        if categories
        else [],
        tag_choices=[Choice("", "Any tag", filters.tag is None)] + [Choice(t, t, filters.tag == t) for t in tags]
        if tags
        else [],
        hint_choices=[
            (
                name,
                HINT_NAMES[hint],
                [
                    Choice("", "Any", hint not in wanted.hints),
                    Choice("true", "Yes", wanted.hints.get(hint) is True),
                    Choice("false", "No", wanted.hints.get(hint) is False),
                ],
            )
            for name, hint in HINT_FILTERS
        ],
        trust_choices=[Choice("", "Any trust", wanted.trust is None)]
        + [Choice(t, t, wanted.trust == t) for t in TRUST_LEVELS],
        provenance_choices=[Choice("", "Any origin", wanted.provenance is None)]
        + [
            Choice(o, f"a hint {o}" if o != "override" else "a hint overridden", wanted.provenance == o)
            for o in ORIGINS
        ],
        coverage=_coverage(everything),
        any_declared=sum(1 for o in origins if "declared" in o),
        any_inferred=sum(1 for o in origins if "inferred" in o),
        all_default=sum(1 for o in origins if o == {"default"}),
        problems=tuple(gateway.catalog.problems),
        listing=gateway.listing_costs([e.wire for e in entries]),
        held=len(gateway.quarantined),
        hidden=sum(1 for q in gateway.quarantined.values() if q.hidden),
    )
