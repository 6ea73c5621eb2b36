"""Hint inference: the four hints a tool most likely has, each with its rule id.

Pure rules as data tables, first match per hint wins. `infer` walks them in
this order (DESIGN.md: "OpenAPI HTTP method profile, then name / description /
schema rules"):

1. the HTTP method profile, when the tool is an HTTP operation (`http_method`);
2. warnings in the description (``desc.irreversible``, ``desc.overwrite``);
3. an explicit read-only statement in its first sentence (``desc.read-only``);
4. evidence of side effects, which can only take read-only away
   (``schema.output-path``, ``schema.dry-run``, ``schema.force-flag``,
   ``schema.confirm-flag``, ``desc.recoverable``, ``desc.saves-file``,
   ``desc.side-effect``);
5. name qualifiers (``name.qualifier.soft``, ``name.qualifier.force``), then the
   name's verb (``name.verb.<class>``, ``name.verbs.mixed``); a read verb whose
   description opens with a writing verb is not trusted (``desc.verb.write``);
   a name without a verb falls back to the description's opening verbs
   (``desc.verb.<class>``);
6. openWorld: web words in the name (``name.web``), the description
   (``desc.web``) or a URL parameter (``schema.url-param``) make it open;
   closed-domain words in the name (``name.local``), the description
   (``desc.local``, ``desc.compute``) or a local path parameter
   (``schema.local-path``) make it closed.

A read verb's destructive false and idempotent true are consequences of
read-only, so they are not applied once read-only was taken away.

POST and reads: RPC-style APIs (Slack's, Notion's ``POST /search``, GraphQL)
send reads as POST, which the method profile calls a write. When the method is
POST and the name or description says read-only strongly (a read verb with no
writing verb, or an explicit "read-only"), and no side effect is in sight, the
tool is read-only under rule ``http.post.read-name``. Every other method, and
every hint of a POST without that evidence, keeps the profile's value.

The rule ids are listed with their patterns in the docstrings of
`hintgate.hints.inference.http_method`, `.naming`, `.text` and `.schema`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hintgate.hints.annotations import Hint, Inferred
from hintgate.hints.inference.http_method import DEFAULT_PROFILE, PROFILES, method_hints
from hintgate.hints.inference.naming import (
    CHANGE,
    CREATE,
    DELETE,
    EDIT,
    INTERACT,
    NAVIGATE,
    SEND,
    START,
    TOGGLE,
    TRANSITION,
    UPDATE,
    name_effect,
    parse_name,
)
from hintgate.hints.inference.rule import apply, cautious_merge, effect
from hintgate.hints.inference.schema import schema_facts, schema_rules
from hintgate.hints.inference.text import (
    BODY_LIMIT,
    BODY_RULES,
    CLOSED_RULES,
    LEAD_RULES,
    SIDE_EFFECT_RULES,
    SIMULATED_RULE,
    WEB_RULE,
    lead,
    lead_verbs,
)

__all__ = ["DEFAULT_PROFILE", "PROFILES", "infer"]

_WEB_WORDS = frozenset({"browser", "web", "url", "urls", "http", "https", "internet", "website", "webpage"})
_LOCAL_WORDS = frozenset({"memory", "memories", "session", "config", "cache"})
_POST_READ_RULES = frozenset({"name.verb.read", "desc.read-only", "desc.verb.read"})
_NOT_READ = effect(read_only=False)
# Opening verbs that contradict a read verb in the name. "Run"/"execute" are
# left out: "Run a find query" describes how a read happens, not a write.
_VETO_CLASSES = frozenset({CREATE, SEND, UPDATE, EDIT, DELETE, INTERACT, NAVIGATE, START, TOGGLE, TRANSITION, CHANGE})


def infer(
    name: str,
    description: str | None = None,
    input_schema: Mapping[str, Any] | None = None,
    *,
    http_method: str | None = None,
    profile: str | None = None,
) -> dict[Hint, Inferred]:
    """Hints inferred for one tool; a hint no rule decides is absent from the dict.

    Args:
        name: the tool's name as listed.
        description: its description, if any.
        input_schema: its input JSON Schema, if any.
        http_method: the HTTP method, for a tool made from an OpenAPI operation.
        profile: the HTTP method profile (a key of `PROFILES`); default `DEFAULT_PROFILE`.

    Returns:
        Per hint, the value and the id of the rule that produced it (e.g.
        ``"http.get"``, ``"name.verb.read"``, ``"desc.irreversible"``).

    Raises:
        ConfigError: when `profile` is not a known profile name.
    """
    if http_method is None:
        if profile is not None:
            method_hints("GET", profile)  # validates the name
        return _infer_text(name, description or "", input_schema)
    found = method_hints(http_method, profile)
    if not found:
        return _infer_text(name, description or "", input_schema)
    if http_method.strip().upper() == "POST":
        text = _infer_text(name, description or "", input_schema)
        read = text.get(Hint.READ_ONLY)
        if read is not None and read.value and read.rule in _POST_READ_RULES:
            rule = "http.post.read-name"
            found[Hint.READ_ONLY] = Inferred(True, rule)
            found[Hint.DESTRUCTIVE] = Inferred(False, rule)
            found[Hint.IDEMPOTENT] = Inferred(True, rule)
    return found


def _infer_text(name: str, description: str, input_schema: Mapping[str, Any] | None) -> dict[Hint, Inferred]:
    found: dict[Hint, Inferred] = {}
    text = description[:BODY_LIMIT].lower()
    first = lead(text)
    for text_rule in BODY_RULES:
        if text_rule.matches(text):
            apply(found, text_rule.values, text_rule.rule)
    for text_rule in LEAD_RULES:
        if text_rule.matches(first):
            apply(found, text_rule.values, text_rule.rule)
    side_effects, world = schema_rules(schema_facts(input_schema))
    for rule, values in side_effects:
        apply(found, values, rule)
    for text_rule in SIDE_EFFECT_RULES:
        if text_rule.matches(text):
            apply(found, text_rule.values, text_rule.rule)

    parts = parse_name(name)
    verbs = lead_verbs(first)
    name_rules = name_effect(parts)
    if parts.verb_class is None or parts.verb_class.opaque:
        if verbs:
            classes = [cls for _, cls in verbs]
            merged = cautious_merge(c.values for c in classes)
            if merged:
                riskiest = next((c for c in classes if not c.reads), classes[0])
                name_rules.append((riskiest.rule.replace("name.", "desc.", 1), merged))
    elif parts.verb_class.reads and any(cls in _VETO_CLASSES for _, cls in verbs):
        apply(found, _NOT_READ, "desc.verb.write")
    not_read = found.get(Hint.READ_ONLY)
    for rule, values in name_rules:
        if not_read is not None and not not_read.value and values.get(Hint.READ_ONLY):
            # A read verb's destructive/idempotent values follow from read-only, which is gone.
            continue
        apply(found, values, rule)

    if Hint.OPEN_WORLD not in found:
        _open_world(found, parts.tokens, first, text, world)
    return found


def _open_world(
    found: dict[Hint, Inferred],
    tokens: tuple[str, ...],
    first: str,
    text: str,
    world: list[tuple[str, Mapping[Hint, bool]]],
) -> None:
    """Open when anything points outside, else closed when something points inside."""
    if _WEB_WORDS.intersection(tokens):
        found[Hint.OPEN_WORLD] = Inferred(True, "name.web")
    elif WEB_RULE.matches(first):
        found[Hint.OPEN_WORLD] = Inferred(True, WEB_RULE.rule)
    elif world and world[0][1].get(Hint.OPEN_WORLD):
        found[Hint.OPEN_WORLD] = Inferred(True, world[0][0])
    elif _LOCAL_WORDS.intersection(tokens):
        found[Hint.OPEN_WORLD] = Inferred(False, "name.local")
    else:
        for text_rule in CLOSED_RULES:
            if text_rule.matches(first):
                apply(found, text_rule.values, text_rule.rule)
                return
        if SIMULATED_RULE.matches(text):
            apply(found, SIMULATED_RULE.values, SIMULATED_RULE.rule)
            return
        for rule, values in world:
            apply(found, values, rule)
