"""How the dashboard shows hints: badges with text and an icon, one-line help, provenance in words.

Every badge carries its meaning in text; the icon and the colour only repeat
it. Listings show badges, places short of space show icons, and a tool's
detail line shows all four hints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.hints.annotations import SPEC_DEFAULTS, Hint, Provenance, Tier
from hintgate.hints.trust import Trust

__all__ = [
    "HINT_HELP",
    "HINT_NAMES",
    "TIER_LABELS",
    "Badge",
    "HintSummary",
    "first_call_badge",
    "hint_badges",
    "hint_summaries",
    "provenance_text",
    "tier_badge",
    "verdict_badge",
    "warning_icon",
]

HINT_NAMES: Mapping[Hint, str] = {
    Hint.READ_ONLY: "Read-only",
    Hint.DESTRUCTIVE: "Destructive",
    Hint.IDEMPOTENT: "Idempotent",
    Hint.OPEN_WORLD: "Open world",
}

HINT_HELP: Mapping[Hint, str] = {
    Hint.READ_ONLY: "The tool does not change anything.",
    Hint.DESTRUCTIVE: "A change it makes may delete or overwrite what was there (only meaningful for writes).",
    Hint.IDEMPOTENT: "Calling it again with the same arguments changes nothing more (only meaningful for writes).",
    Hint.OPEN_WORLD: "It reaches things outside hintgate's view: the internet, other people's systems.",
}

TIER_LABELS: Mapping[str, str] = {
    Tier.READ_ONLY.value: "Read-only",
    Tier.ADDITIVE.value: "Additive write",
    Tier.DESTRUCTIVE.value: "Destructive",
    Tier.UNKNOWN.value: "Unknown",
}

_VERDICTS = {
    "allow": ("Allowed", "check", "good"),
    "approved": ("Approved", "check", "good"),
    "ask": ("Asked", "question", "caution"),
    "deny": ("Denied", "cross", "danger"),
    "denied": ("Denied", "cross", "danger"),
    "expired": ("Expired", "cross", "danger"),
    "withdrawn": ("Withdrawn", "cross", "neutral"),
}


@dataclass(frozen=True, slots=True)
class Badge:
    """A label with text, an icon and a colour kind.

    Attributes:
        text: what the badge says; the meaning is all here.
        icon: the id of an icon in the page's icon sheet, repeating the text as a shape.
        kind: a colour family for CSS (`good`, `caution`, `danger`, `info`, `neutral`).
        title: a longer explanation, shown as a tooltip.
    """

    text: str
    icon: str
    kind: str
    title: str = ""


@dataclass(frozen=True, slots=True)
class HintSummary:
    """One hint's value and where it came from, for a detail line.

    Attributes:
        hint: the hint's wire name (`readOnlyHint`).
        name: its short name ("Read-only").
        value: the value in force.
        origin: declared, inferred, override or default.
        source: the origin in words, with the inference rule when there is one.
        distrusted: a declared value that was set aside (untrusted server, or strong evidence against a local
            one), else None.
        set_aside: why it was set aside, in a few words, by its server's trust ("not trusted").
    """

    hint: str
    name: str
    value: bool
    origin: str
    source: str
    distrusted: bool | None = None
    set_aside: str = Trust.UNTRUSTED.set_aside


def provenance_text(provenance: str) -> str:
    """A provenance string (`inferred:name.verb.read`) in words."""
    try:
        parsed = Provenance.parse(provenance)
    except ValueError:
        return provenance
    origin = parsed.origin.value
    if origin == "inferred":
        return f"inferred by rule {parsed.rule}" if parsed.rule else "inferred"
    if origin == "default":
        return "MCP default (nothing said)"
    if origin == "override":
        return "operator override"
    return "declared by the server"


def _hint_value(annotations: Mapping[str, Any], hint: Hint) -> bool:
    value = annotations.get(hint.value)
    return value if isinstance(value, bool) else SPEC_DEFAULTS[hint]


def hint_badges(annotations: Mapping[str, Any], provenance: Mapping[str, str] | None = None) -> list[Badge]:
    """The badges for a tool's resolved hints (MCP `annotations` JSON, all four explicit or defaulted).

    Read-only, or Destructive for a write that may destroy; Idempotent for a
    write that is (a read-only tool is idempotent by definition, so it says
    nothing there); Open world or Closed world always.
    """
    provenance = provenance or {}

    def why(hint: Hint) -> str:
        source = provenance.get(hint.value)
        return f"{hint.value}: {_hint_value(annotations, hint)}" + (f" ({provenance_text(source)})" if source else "")

    out: list[Badge] = []
    if _hint_value(annotations, Hint.READ_ONLY):
        out.append(Badge("Read-only", "eye", "good", why(Hint.READ_ONLY)))
    else:
        if _hint_value(annotations, Hint.DESTRUCTIVE):
            out.append(Badge("Destructive", "warning", "danger", why(Hint.DESTRUCTIVE)))
        if _hint_value(annotations, Hint.IDEMPOTENT):
            out.append(Badge("Idempotent", "repeat", "info", why(Hint.IDEMPOTENT)))
    if _hint_value(annotations, Hint.OPEN_WORLD):
        out.append(Badge("Open world", "globe", "neutral", why(Hint.OPEN_WORLD)))
    else:
        out.append(Badge("Closed world", "box", "neutral", why(Hint.OPEN_WORLD)))
    return out


def hint_summaries(
    annotations: Mapping[str, Any],
    provenance: Mapping[str, str],
    distrusted: Mapping[str, bool] | None = None,
    trust: str = Trust.UNTRUSTED.value,
) -> list[HintSummary]:
    """All four hints with value and origin, in spec order; `trust` is their server's (it words a set-aside)."""
    distrusted = distrusted or {}
    set_aside = Trust(trust).set_aside
    out = []
    for hint in Hint:
        source = provenance.get(hint.value, "default")
        out.append(
            HintSummary(
                hint=hint.value,
                name=HINT_NAMES[hint],
                value=_hint_value(annotations, hint),
                origin=source.partition(":")[0],
                source=provenance_text(source),
                distrusted=distrusted.get(hint.value),
                set_aside=set_aside,
            )
        )
    return out


def tier_badge(tier: str | None) -> Badge | None:
    """The badge for a tier, when it says more than the hint badges do.

    Read-only and destructive tools already carry those badges; an additive
    write (not read-only, not destructive) and a tool nothing is known about
    get one of their own.
    """
    name = tier or "unknown"
    if name == Tier.ADDITIVE.value:
        return Badge("Additive write", "plus", "caution", "Changes things, but destroys nothing (tier: additive write)")
    if name == Tier.UNKNOWN.value:
        return Badge("Unknown risk", "question", "caution", "Nothing declared, inferred or set says what it does")
    if name in TIER_LABELS:
        return None
    return Badge(name, "question", "neutral")


def verdict_badge(verdict: str | None) -> Badge:
    """The badge for a recorded call's final verdict."""
    if verdict is None:
        return Badge("No verdict", "question", "neutral")
    text, icon, kind = _VERDICTS.get(verdict, (verdict.capitalize(), "question", "neutral"))
    return Badge(text, icon, kind)


_FIRST_CALLS = {
    "allow": ("Runs unasked", "check", "good"),
    "ask": ("Asks first", "question", "caution"),
    "deny": ("Denied", "cross", "danger"),
}


def first_call_badge(verdict: str) -> Badge:
    """The badge for what the mode in force does to a tool's first call in a session (allow, ask or deny)."""
    text, icon, kind = _FIRST_CALLS.get(verdict, (verdict.capitalize(), "question", "neutral"))
    return Badge(text, icon, kind)


def warning_icon(warning: str) -> str:
    """The icon for an approval warning, by what it warns about."""
    lowered = warning.lower()
    if "destructive" in lowered:
        return "warning"
    if "only reads" in lowered:
        return "eye"
    if "open world" in lowered or "external" in lowered:
        return "globe"
    if "untrusted" in lowered:
        return "shield"
    return "question"
