"""What MCP tool annotations mean: value types, provenance, resolution and tiers.

Pure: no I/O and no imports from the MCP SDK, the web stack or the database.

The four hints are tri-state (true, false, not set). The MCP specification
(2025-11-25, `ToolAnnotations`) gives the defaults a client must assume for an
unset hint: readOnly false, destructive true, idempotent false, openWorld true.
Those defaults are also the *cautious* value of each hint, which is what the
trust rule leans on: an untrusted source may move a hint towards its default,
never away from it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hintgate.errors import HintTypeError
from hintgate.hints.trust import Trust

__all__ = [
    "CAUTIOUS",
    "META_PREFIX",
    "SPEC_DEFAULTS",
    "Annotations",
    "Hint",
    "Inferred",
    "Origin",
    "ParsedAnnotations",
    "Provenance",
    "Resolution",
    "Resolved",
    "Strength",
    "Tier",
    "parse_annotations",
    "resolve",
    "tier_of",
]

META_PREFIX = "hintgate/"
"""The `_meta` key prefix under which hintgate explains a tool (provenance, tier, server...)."""


class Hint(enum.StrEnum):
    """One of the four boolean hints, valued by its camelCase wire name."""

    READ_ONLY = "readOnlyHint"
    DESTRUCTIVE = "destructiveHint"
    IDEMPOTENT = "idempotentHint"
    OPEN_WORLD = "openWorldHint"

    @property
    def attr(self) -> str:
        """The snake_case attribute name on `Annotations`."""
        return _ATTRS[self]

    @property
    def label(self) -> str:
        """A short human name: "read-only", "destructive", ..."""
        return _LABELS[self]


_ATTRS = {
    Hint.READ_ONLY: "read_only",
    Hint.DESTRUCTIVE: "destructive",
    Hint.IDEMPOTENT: "idempotent",
    Hint.OPEN_WORLD: "open_world",
}
_LABELS = {
    Hint.READ_ONLY: "read-only",
    Hint.DESTRUCTIVE: "destructive",
    Hint.IDEMPOTENT: "idempotent",
    Hint.OPEN_WORLD: "open world",
}

SPEC_DEFAULTS: Mapping[Hint, bool] = {
    Hint.READ_ONLY: False,
    Hint.DESTRUCTIVE: True,
    Hint.IDEMPOTENT: False,
    Hint.OPEN_WORLD: True,
}
"""The value a client must assume for an unset hint (MCP spec, `ToolAnnotations`)."""

CAUTIOUS: Mapping[Hint, bool] = SPEC_DEFAULTS
"""The value of each hint that makes a tool look riskier; the spec chose its defaults so."""

_KNOWN_KEYS = frozenset({"title", *(h.value for h in Hint)})


@dataclass(frozen=True, slots=True)
class Annotations:
    """A tool's `title` and four tri-state hints; `None` means not set."""

    title: str | None = None
    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None

    def get(self, hint: Hint) -> bool | None:
        """The hint's value as set, or `None` when it is not."""
        value: bool | None = getattr(self, hint.attr)
        return value

    def set_hints(self) -> dict[Hint, bool]:
        """The hints that are set, in spec order."""
        return {h: v for h in Hint if (v := self.get(h)) is not None}

    def effective(self) -> Annotations:
        """Every hint resolved: unset hints take the spec defaults.

        When readOnly is true the spec says destructive and idempotent carry no
        meaning; a tool that changes nothing destroys nothing and can be
        repeated, so they resolve to false and true.
        """
        values = {h: self.get(h) for h in Hint}
        resolved = {h: SPEC_DEFAULTS[h] if v is None else v for h, v in values.items()}
        if resolved[Hint.READ_ONLY]:
            resolved[Hint.DESTRUCTIVE] = False
            resolved[Hint.IDEMPOTENT] = True
        return Annotations(title=self.title, **{h.attr: v for h, v in resolved.items()})

    def to_mcp(self, *, explicit: bool = False) -> dict[str, Any]:
        """The MCP JSON form (camelCase).

        Args:
            explicit: write all four hints, unset ones as their spec defaults,
                instead of leaving unset hints out.
        """
        out: dict[str, Any] = {}
        if self.title is not None:
            out["title"] = self.title
        for hint in Hint:
            value = self.get(hint)
            if value is None and explicit:
                value = SPEC_DEFAULTS[hint]
            if value is not None:
                out[hint.value] = value
        return out

    @classmethod
    def from_mcp(cls, data: Mapping[str, Any] | None, *, tool: str) -> Annotations:
        """Read MCP JSON strictly: a value of the wrong type raises `HintTypeError`.

        Unknown keys are ignored here; use `parse_annotations` to keep them.
        """
        parsed = parse_annotations(data, tool=tool)
        if parsed.invalid:
            key, value = next(iter(parsed.invalid.items()))
            raise HintTypeError(tool, key, value)
        return parsed.annotations


@dataclass(frozen=True, slots=True)
class ParsedAnnotations:
    """The result of reading a tool's `annotations` object leniently.

    Attributes:
        annotations: the well-typed values.
        extra: keys the spec does not define, kept so a proxy can carry them.
        invalid: spec keys whose values had the wrong type (left unset above).
    """

    annotations: Annotations
    extra: Mapping[str, Any] = field(default_factory=dict)
    invalid: Mapping[str, Any] = field(default_factory=dict)


def parse_annotations(data: Mapping[str, Any] | None, *, tool: str) -> ParsedAnnotations:
    """Read a tool's `annotations` JSON object without losing anything.

    Args:
        data: the object as received; `None` when the tool has none.
        tool: the tool's name, for error messages.

    Raises:
        HintTypeError: when `data` is present but not an object.
    """
    if data is None:
        return ParsedAnnotations(Annotations())
    if not isinstance(data, Mapping):
        raise HintTypeError(tool, "annotations", data) from None
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    invalid: dict[str, Any] = {}
    for key, value in data.items():
        if key not in _KNOWN_KEYS:
            extra[key] = value
        elif value is None:
            continue  # JSON null: not set
        elif key == "title":
            if isinstance(value, str):
                values["title"] = value
            else:
                invalid[key] = value
        elif isinstance(value, bool):
            values[Hint(key).attr] = value
        else:
            invalid[key] = value
    return ParsedAnnotations(Annotations(**values), extra, invalid)


class Origin(enum.StrEnum):
    """Where a hint's value came from, highest precedence first."""

    OVERRIDE = "override"
    DECLARED = "declared"
    INFERRED = "inferred"
    DEFAULT = "default"
    ARGUMENT = "argument"
    """Judged from one call's arguments (`hintgate.hints.calls`): a call's hints, never a tool's."""


@dataclass(frozen=True, slots=True)
class Provenance:
    """The origin of one hint's value, with the inference rule when inferred."""

    origin: Origin
    rule: str | None = None

    def __str__(self) -> str:
        return f"{self.origin.value}:{self.rule}" if self.rule else self.origin.value

    @classmethod
    def parse(cls, text: str) -> Provenance:
        """Read the `str()` form back (`"inferred:name.verb.get"` → inferred, rule)."""
        origin, _, rule = text.partition(":")
        return cls(Origin(origin), rule or None)


class Strength(enum.StrEnum):
    """How much an inference rule's evidence can be relied on, from most to least.

    Strong: the HTTP method, an action verb in the name's (or the
    description's opening) action position, an explicit statement in the
    description's first sentence. Moderate: an action verb there whose effect
    on the environment depends on what it acts on: starting, triggering or
    stopping something, connecting or switching a session, generating or
    converting an artifact. Servers label such tools both ways (in the shared
    corpus, 14 of 28 such tools are declared read-only), so this is evidence
    to infer a hint from, not to set aside what a `local` server declares.
    A name's writing verb is moderate for destructive alone, unless the
    description or the verb's meaning says data is lost: it says the tool
    writes, not that what it replaces is gone.
    Weak: a word anywhere in the description, a word anywhere in the name that
    is not its action, a schema property. Weak evidence may make a tool look
    riskier, never safer.
    """

    STRONG = "strong"
    MODERATE = "moderate"
    WEAK = "weak"

    @property
    def rank(self) -> int:
        """Its place in the order weak < moderate < strong."""
        return _STRENGTH_RANK[self]


_STRENGTH_RANK = {Strength.WEAK: 0, Strength.MODERATE: 1, Strength.STRONG: 2}


@dataclass(frozen=True, slots=True)
class Inferred:
    """A hint value produced by an inference rule, with the rule's id.

    Attributes:
        value: the inferred value.
        rule: the id of the rule that produced it.
        strength: how strong the evidence for the value is (strong when a strong rule agrees with a weak one).
        why: when other evidence disagreed and the riskier value was taken, what disagreed.
    """

    value: bool
    rule: str
    # Explanations, not identity: two inferences of one value by one rule are the same inference.
    strength: Strength = field(default=Strength.STRONG, compare=False)
    why: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Resolved:
    """One hint after resolution.

    Attributes:
        value: the value in force.
        provenance: where `value` came from.
        distrusted: a declared value that was set aside because it would have
            made the tool look safer: the source is untrusted, or (trust
            `local`) strong evidence says the tool is riskier. The
            resolution's `trust` tells which.
    """

    value: bool
    provenance: Provenance
    distrusted: bool | None = None


class Tier(enum.StrEnum):
    """How risky a tool is, for people and for policy."""

    READ_ONLY = "read-only"
    ADDITIVE = "additive-write"
    DESTRUCTIVE = "destructive"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Resolution:
    """A tool's hints after resolution, with everything that went into them.

    Attributes:
        hints: the value in force for each hint and its provenance.
        title: the annotation title in force (declared or overridden), if any.
        declared: what the source declared.
        inferred: what inference produced, per hint.
        overrides: the operator's values, per hint.
        trust: how far the source's declarations were believed.
    """

    hints: Mapping[Hint, Resolved]
    title: str | None
    declared: Annotations
    inferred: Mapping[Hint, Inferred]
    overrides: Mapping[Hint, bool]
    trust: Trust
    tier: Tier = field(init=False)
    """The tool's tier under these hints (computed once: the policy reads it on every call)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tier", tier_of(self))

    @property
    def trusted(self) -> bool:
        """Whether a declared value that stands is believed (trust `trusted` or `local`)."""
        return self.trust.believed

    def value(self, hint: Hint) -> bool:
        """The value in force for `hint`."""
        return self.hints[hint].value

    def annotations(self) -> Annotations:
        """The resolved annotations, every hint explicit."""
        return Annotations(title=self.title, **{h.attr: r.value for h, r in self.hints.items()})

    def to_mcp(self) -> dict[str, Any]:
        """MCP `annotations` JSON with all four hints explicit."""
        return self.annotations().to_mcp(explicit=True)

    def provenance(self) -> dict[str, str]:
        """`{wire hint name: "declared" | "override" | "inferred:<rule>" | "default"}`."""
        return {h.value: str(r.provenance) for h, r in self.hints.items()}


def resolve(
    *,
    declared: Annotations,
    inferred: Mapping[Hint, Inferred] | None = None,
    overrides: Mapping[Hint, bool] | None = None,
    title_override: str | None = None,
    trust: Trust = Trust.UNTRUSTED,
) -> Resolution:
    """Resolve each hint on its own, first match wins.

    Precedence: operator override, then declared by the source, then inferred,
    then the spec default. For an untrusted source a declared value only counts
    when it is at least as cautious as what would stand without it (inferred,
    else the default); otherwise that fallback wins and the declared value is
    kept as `distrusted` for display. For a `local` source a declared value
    counts unless a strong inference gives the hint its cautious value: then
    the riskier, inferred value wins and the declared one is kept the same way.

    When the resolved readOnly is true, destructive and idempotent have no
    meaning; they resolve to false and true unless overridden, with the
    provenance of the readOnly hint.

    A source that declares destructiveHint or idempotentHint and leaves
    readOnlyHint unset has declared a write: the spec gives those two hints
    meaning only for a tool that is not read-only. Its readOnly resolves false
    as declared (provenance `declared:implied`), so no inference makes such a
    tool read-only (an export declared non-destructive writes its file).
    The other way, a declared readOnly true that does not stand takes its
    declared destructive and idempotent values with it: the spec gave them no
    meaning for that tool, so they resolve as if undeclared.
    """
    inferred = inferred or {}
    overrides = overrides or {}
    hints: dict[Hint, Resolved] = {}
    for hint in Hint:
        fallback = _fallback(hint, inferred)
        if hint in overrides:
            hints[hint] = Resolved(overrides[hint], Provenance(Origin.OVERRIDE))
            continue
        value = declared.get(hint)
        if hint in _WRITE_HINTS and declared.read_only is True and hints[Hint.READ_ONLY].value is False:
            # Its read-only was set aside: what it said of a write it did not declare has no meaning.
            value = None
        if value is None and hint is Hint.READ_ONLY and _declares_a_write(declared):
            hints[hint] = Resolved(False, Provenance(Origin.DECLARED, IMPLIED))
        elif value is None:
            hints[hint] = fallback
        elif value == CAUTIOUS[hint] or value == fallback.value or _stands(trust, hint, inferred.get(hint)):
            hints[hint] = Resolved(value, Provenance(Origin.DECLARED))
        else:
            hints[hint] = Resolved(fallback.value, fallback.provenance, distrusted=value)
    read_only = hints[Hint.READ_ONLY]
    if read_only.value:
        for hint, forced in ((Hint.DESTRUCTIVE, False), (Hint.IDEMPOTENT, True)):
            if hint not in overrides and hints[hint].value != forced:
                hints[hint] = Resolved(forced, read_only.provenance)
    title = title_override if title_override is not None else declared.title
    return Resolution(
        hints=hints,
        title=title,
        declared=declared,
        inferred=dict(inferred),
        overrides=dict(overrides),
        trust=trust,
    )


IMPLIED = "implied"
"""The rule of a readOnly false that a declared destructiveHint or idempotentHint implies (`declared:implied`)."""


_WRITE_HINTS = frozenset({Hint.DESTRUCTIVE, Hint.IDEMPOTENT})
"""The hints the spec gives meaning only for a tool that is not read-only."""


def _declares_a_write(declared: Annotations) -> bool:
    """Whether destructiveHint or idempotentHint is declared: hints the spec defines only for tools that write."""
    return declared.destructive is not None or declared.idempotent is not None


def _stands(trust: Trust, hint: Hint, evidence: Inferred | None) -> bool:
    """Whether a declared value that would make the tool look safer than `evidence` does stands."""
    if trust is Trust.TRUSTED:
        return True
    if trust is Trust.LOCAL:
        # Only strong evidence for the cautious value overrules a local server: weak evidence is a
        # word anywhere, moderate evidence an action servers label both ways ("trigger", "connect"),
        # and a mistaken hint is what strong evidence is good at catching.
        return evidence is None or evidence.strength is not Strength.STRONG or evidence.value != CAUTIOUS[hint]
    return False


def _fallback(hint: Hint, inferred: Mapping[Hint, Inferred]) -> Resolved:
    found = inferred.get(hint)
    if found is not None:
        return Resolved(found.value, Provenance(Origin.INFERRED, found.rule))
    return Resolved(SPEC_DEFAULTS[hint], Provenance(Origin.DEFAULT))


def tier_of(resolution: Resolution) -> Tier:
    """The tier of a resolved tool.

    - read-only: readOnly is true.
    - unknown: neither readOnly nor destructive came from anything but the spec
      defaults (nothing declared, inferred or overridden says what it does).
    - additive write: not read-only and destructive is false: non-destructive
      writes and soft deletes alike, which hints alone cannot tell apart.
    - destructive: not read-only and destructive is true,
      including a tool declared not read-only that leaves destructive unset,
      because the spec's default for it is true.
    """
    read_only = resolution.hints[Hint.READ_ONLY]
    destructive = resolution.hints[Hint.DESTRUCTIVE]
    if read_only.value:
        return Tier.READ_ONLY
    if read_only.provenance.origin is Origin.DEFAULT and destructive.provenance.origin is Origin.DEFAULT:
        return Tier.UNKNOWN
    return Tier.DESTRUCTIVE if destructive.value else Tier.ADDITIVE
