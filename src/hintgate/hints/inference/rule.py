"""What an inference rule produces: an `Effect`, a partial set of hint values.

Every rule table in this package maps patterns to an `Effect` and a stable rule
id. An effect only names the hints its rule has evidence for; a hint it leaves
out is decided by a later rule or, failing all, by the spec default.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from hintgate.hints.annotations import CAUTIOUS, Hint, Inferred, Strength

__all__ = ["MODERATE_RULES", "WEAK_RULES", "Effect", "apply", "cautious_merge", "effect", "strength_of"]

WEAK_RULES: tuple[str, ...] = (
    "schema.",
    "desc.irreversible",
    "desc.overwrite",
    "desc.saves-file",
    "desc.side-effect",
    "desc.simulated",
    "name.web",
)
"""Rule ids (or their prefixes) whose evidence is weak: a word anywhere in the
description or the name that is not its action, or a property of the input
schema. Every other rule is strong (`MODERATE_RULES` aside): the HTTP method,
the name's action verb, the description's opening verb or an explicit statement
in its first sentence."""

MODERATE_RULES: tuple[str, ...] = tuple(
    f"{where}.verb.{verb_class}"
    for verb_class in ("start", "lifecycle", "session", "artifact")
    for where in ("name", "desc")
)
"""Rule ids of an action whose effect on the environment depends on what it acts on: starting,
triggering or stopping something (a search, a recording, an operation), connecting or switching a
session, making an artifact that may be returned or stored. Enough to infer a hint from; not
enough to set aside a `local` server's declaration (`hintgate.hints.annotations.Strength`)."""

Effect = Mapping[Hint, bool]
"""Hint values one rule sets; hints it has no evidence for are absent."""


def effect(
    *,
    read_only: bool | None = None,
    destructive: bool | None = None,
    idempotent: bool | None = None,
    open_world: bool | None = None,
) -> Effect:
    """Build an `Effect` from keyword values, leaving out the `None` ones."""
    values = {
        Hint.READ_ONLY: read_only,
        Hint.DESTRUCTIVE: destructive,
        Hint.IDEMPOTENT: idempotent,
        Hint.OPEN_WORLD: open_world,
    }
    return {hint: value for hint, value in values.items() if value is not None}


def cautious_merge(effects: Iterable[Effect]) -> Effect:
    """Combine the effects of several verbs that one tool may perform.

    A tool that "lists, creates or closes" tabs is only as safe as its riskiest
    action: per hint, any effect with the cautious value (the spec default)
    wins, and a hint some effect leaves open stays open unless another effect
    sets it cautiously. Only when every effect agrees on the safer value does
    the merge keep it.
    """
    effects = list(effects)
    merged: dict[Hint, bool] = {}
    for hint in Hint:
        values = [e.get(hint) for e in effects]
        if CAUTIOUS[hint] in values:
            merged[hint] = CAUTIOUS[hint]
        elif values and None not in values:
            merged[hint] = not CAUTIOUS[hint]
    return merged


def strength_of(rule: str) -> Strength:
    """The strength of a rule's evidence (see `WEAK_RULES` and `MODERATE_RULES`)."""
    if rule.startswith(WEAK_RULES):
        return Strength.WEAK
    return Strength.MODERATE if rule in MODERATE_RULES else Strength.STRONG


def apply(
    found: dict[Hint, Inferred],
    values: Effect,
    rule: str,
    why: str | None = None,
    *,
    strength: Strength | None = None,
) -> None:
    """Record `values` under `rule` for the hints no earlier rule decided.

    Weak evidence only ever records the cautious value of a hint: on its own
    it may make a tool look riskier, never safer. A hint decided on weaker
    evidence that a later, stronger rule agrees with takes the stronger
    rule's strength (its rule stays the first one's). `strength` is the
    rule's own unless given (a rule that stands for several verb classes).
    """
    if strength is None:
        strength = strength_of(rule)
    for hint, value in values.items():
        kept = found.get(hint)
        if kept is not None:
            if kept.strength.rank < strength.rank and kept.value == value:
                # Stronger evidence agrees: the value no longer rests on the weaker evidence alone.
                found[hint] = Inferred(kept.value, kept.rule, strength, kept.why)
            continue
        if strength is Strength.WEAK and value != CAUTIOUS[hint]:
            continue
        found[hint] = Inferred(value, rule, strength, why)
