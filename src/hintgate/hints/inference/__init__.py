"""Hint inference: the four hints a tool most likely has, each with its rule id.

Pure rules as data tables, first match per hint wins. `infer` walks them in
this order (the HTTP method profile, then name / description / schema rules):

1. the HTTP method profile, when the tool is an HTTP operation (`http_method`);
2. warnings in the description (``desc.irreversible``, ``desc.overwrite``);
3. an explicit read-only statement in its first sentence (``desc.read-only``),
   unless the name's action writes (then ``conflict.read-only``: not read-only);
4. evidence of side effects, which can only take read-only away
   (``schema.exec-surface``, ``schema.output-path``, ``schema.dry-run``,
   ``schema.force-flag``, ``schema.confirm-flag``, ``desc.saves-file``,
   ``desc.side-effect``; ``schema.export-path``, strong: an export or download
   told where to save its copy writes there); a delete whose description says what
   it removes can be restored is not destructive (``desc.recoverable``);
5. name qualifiers (``name.qualifier.soft``, ``name.qualifier.force``), then the
   name's action verb (``name.verb.<class>``, ``name.verbs.mixed``); a read verb
   whose description opens with a writing verb is not trusted
   (``desc.verb.write``); a name without a verb falls back to the description's
   opening verbs (``desc.verb.<class>``), but an opaque action (``process``,
   ``review``) is never made a read by them (``conflict.read-only``);
6. openWorld: web words in the name (``name.web``), the description
   (``desc.web``) or a URL parameter (``schema.url-param``) make it open;
   closed-domain statements in the first sentence (``desc.local``,
   ``desc.ask-user``, ``desc.compute``) and names of memory, session, config,
   cache or local-file tools (``name.local``) make it closed.

Evidence has a strength (`hintgate.hints.annotations.Strength`, ids in
`hintgate.hints.inference.rule.WEAK_RULES`). Weak evidence (a word anywhere
in the description, a word of the name that is not its action, a schema
property) only ever records the cautious value: it may make a tool look
riskier, never read-only, non-destructive or closed-world on its own. Where
strong evidence disagrees with itself the riskier value is taken and
`Inferred.why` says what disagreed.

An execution surface (a string parameter holding code, SQL, a query
language, a shell command, a script or an expression) makes a tool not
read-only and not idempotent, unless the description restricts it to reads
in so many words ("read-only SQL query", "only SELECT statements") or the
name's action stores it (``create_function(code)``). A tool whose description
says it runs statements, commands, a batch or a script, or a query language
that can write (SQL, Cypher, CQL, SPARQL, KQL...), has one whatever its
parameters are called ("run a query or a management command").

A read verb's destructive false and idempotent true are consequences of
read-only, so they are not applied once read-only was taken away.

POST and reads: RPC-style APIs (Slack's, Notion's ``POST /search``, GraphQL)
send reads as POST, which the method profile calls a write. A POST becomes
read-only (rule ``http.post.read-name``) only when the name's action verb, in
action position, only reads and nothing took read-only away: never through a
read word elsewhere in the name, nor through the description alone.

The rule ids are listed with their patterns in the docstrings of
`hintgate.hints.inference.http_method`, `.naming`, `.text` and `.schema`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hintgate.hints.annotations import Hint, Inferred, Strength
from hintgate.hints.inference.http_method import DEFAULT_PROFILE, PROFILES, method_hints
from hintgate.hints.inference.naming import (
    CHANGE,
    CREATE,
    DELETE,
    EDIT,
    EXPORT,
    INTERACT,
    NAVIGATE,
    SEND,
    START,
    TOGGLE,
    TRANSITION,
    UPDATE,
    VerbClass,
    name_effect,
    parse_name,
    settle,
)
from hintgate.hints.inference.rule import apply, cautious_merge, effect, strength_of
from hintgate.hints.inference.schema import EXEC_SURFACE, SchemaFacts, reads_only, schema_facts, schema_rules
from hintgate.hints.inference.text import (
    ATTACHMENT_RULE,
    BODY_LIMIT,
    BODY_RULES,
    CLOSED_RULES,
    EXPORT_TO_FILE_RULE,
    LEAD_RULES,
    RECOVERABLE_RULE,
    SIDE_EFFECT_RULES,
    SIMULATED_RULE,
    WEB_RULE,
    lead,
    lead_verbs,
)
from hintgate.scan.deferred import compiled

__all__ = ["DEFAULT_PROFILE", "PROFILES", "execution_surface", "infer"]

_WEB_WORDS = frozenset({"browser", "web", "url", "urls", "http", "https", "internet", "website", "webpage"})
# The agent's own memory, session, configuration or cache, and local files: a closed domain.
_LOCAL_WORDS = frozenset({"memory", "memories", "session", "sessions", "config", "configs", "cache"})
_FILE_WORDS = frozenset({"file", "files", "fs", "filesystem", "disk", "dir", "directory", "directories", "folder"})
_RECOVERABLE = effect(destructive=False)
_NOT_READ = effect(read_only=False)
_STORING = frozenset({CREATE, UPDATE, EDIT})
_OPEN = effect(open_world=True)
_CLOSED = effect(open_world=False)
# Opening verbs that contradict a read verb in the name. "Run"/"execute" are
# left out: "Run a find query" describes how a read happens, not a write.
# Verbs whose English meaning is removal beyond recovery: their word alone says data is lost.
_LOSS_VERBS = frozenset({"purge", "destroy", "wipe", "erase", "shred", "obliterate", "truncate"})
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
        if read is not None and read.value and read.rule == "name.verb.read":
            rule = "http.post.read-name"
            found[Hint.READ_ONLY] = Inferred(True, rule)
            found[Hint.DESTRUCTIVE] = Inferred(False, rule)
            found[Hint.IDEMPOTENT] = Inferred(True, rule)
    return found


def _infer_text(name: str, description: str, input_schema: Mapping[str, Any] | None) -> dict[Hint, Inferred]:
    found: dict[Hint, Inferred] = {}
    text = description[:BODY_LIMIT].lower()
    first = lead(text)
    parts = parse_name(name)
    verbs = lead_verbs(first)
    if parts.candidates and verbs:
        # "backup_download": either word may be the action; "Download the latest backup" says which.
        opening = verbs[0][0]
        chosen = next((w for w in parts.candidates if opening in (w, f"{w}s", f"{w}es", f"{w}ed")), None)
        if chosen is not None:
            parts = settle(parts, chosen)
    cls = parts.verb_class
    name_writes = (cls is not None and not cls.reads and not cls.opaque) or bool(parts.later_writes)
    # "deploy_log_reader": the action is "deploy" or "read"; a read-only statement may settle it.
    name_writes = name_writes and not parts.reader_head
    for text_rule in BODY_RULES:
        if text_rule.matches(text):
            apply(found, text_rule.values, text_rule.rule)
    for text_rule in LEAD_RULES:
        if text_rule.matches(first):
            if name_writes:
                # A writing action in the name against "read-only" in the description: the riskier wins.
                _conflict(found, f"the description says read-only but the name's action is {parts.verb!r}")
            else:
                apply(found, text_rule.values, text_rule.rule)
    facts = schema_facts(input_schema)
    facts.exec_param = _surface(facts, cls, text)
    said_runs = facts.exec_param is None and _runs_statements(facts, cls, text)
    if said_runs:
        # "Run a query or a management command": the tool runs what it is given, whatever its parameter is
        # called; a statement or a command may write, so the tool is no read (its calls are judged one by one).
        facts.exec_param = _SAID
    side_effects, world = schema_rules(facts)
    for rule, values in side_effects:
        why = f"parameter {facts.exec_param!r} holds code or a query the tool runs" if rule == EXEC_SURFACE else None
        if said_runs and rule == EXEC_SURFACE:
            why = "the description says it runs statements or commands it is given"
        apply(found, values, rule, why)
    for text_rule in SIDE_EFFECT_RULES:
        if text_rule.matches(text):
            apply(found, text_rule.values, text_rule.rule)
    exports = cls is EXPORT or (cls is None and any(c is EXPORT for _, c in verbs))
    if exports and (facts.where_param is not None or EXPORT_TO_FILE_RULE.matches(text)):
        # An export or a download that is told where to put its copy writes a file there.
        where = f"parameter {facts.where_param!r} says where" if facts.where_param else "the description says so"
        # Strong, though a schema rule: the name's action makes a copy, the parameter or the description
        # says where it is written.
        why = f"it saves its copy to a path: {where}"
        apply(found, _NOT_READ, "schema.export-path", why, strength=Strength.STRONG)
    if cls is DELETE and not {"force", "soft"} & parts.qualifiers and RECOVERABLE_RULE.matches(text):
        # "Soft delete a note (can be restored later)": what the delete removes can come back.
        apply(found, _RECOVERABLE, RECOVERABLE_RULE.rule)

    name_rules = name_effect(parts)
    if cls is None or (cls.opaque and not parts.later_writes):
        if verbs:
            classes = [c for _, c in verbs]
            merged = cautious_merge(c.values for c in classes)
            if cls is not None and merged.get(Hint.READ_ONLY):
                # An opaque action ("process", "review") is not made a read by the description's verb.
                _conflict(found, f"the name's action {parts.verb!r} may write; the description opens with a read")
            elif merged:
                riskiest = next((c for c in classes if not c.reads), classes[0])
                name_rules.append((riskiest.rule.replace("name.", "desc.", 1), merged))
    elif cls.reads and not parts.later_writes and any(c in _VETO_CLASSES for _, c in verbs):
        word, veto = next((w, c) for w, c in verbs if c in _VETO_CLASSES)
        apply(
            found,
            _NOT_READ,
            "desc.verb.write",
            f"the name reads ({parts.verb!r}) but the description opens with {word!r}",
            strength=strength_of(veto.rule),  # as strong as that verb's own class ("Starts..." is moderate)
        )
    not_read = found.get(Hint.READ_ONLY)
    for rule, values in name_rules:
        if not_read is not None and not not_read.value and values.get(Hint.READ_ONLY):
            # A read verb's destructive/idempotent values follow from read-only, which is gone.
            if not_read.why is None:
                found[Hint.READ_ONLY] = Inferred(
                    False,
                    not_read.rule,
                    not_read.strength,
                    f"the name reads ({parts.verb!r}) but {not_read.rule} says it writes",
                )
            continue
        if rule.startswith("name.") and not rule.startswith("name.qualifier."):
            said = parts.verb in _LOSS_VERBS or any(c.values.get(Hint.DESTRUCTIVE) for _, c in verbs)
            _apply_action_word(found, values, rule, corroborated=said)
        else:
            apply(found, values, rule)

    if Hint.OPEN_WORLD not in found:
        _open_world(found, parts.tokens, first, text, world)
    return found


def execution_surface(
    name: str, description: str | None = None, input_schema: Mapping[str, Any] | None = None
) -> str | None:
    """The parameter through which a tool runs caller-supplied code, SQL, queries or commands, if any.

    `None` when there is none, when the description restricts it to reads in
    so many words, or when the name's action stores what it is given
    (``create_function(code)``).
    """
    facts = schema_facts(input_schema)
    if facts.exec_param is None:
        return None
    return _surface(facts, parse_name(name).verb_class, (description or "")[:BODY_LIMIT].lower())


def _surface(facts: SchemaFacts, cls: VerbClass | None, text: str) -> str | None:
    if facts.exec_param is None or facts.exec_reads_only or cls in _STORING or reads_only(text):
        # "create_function(code)" stores the code it is given, and "runs a read-only SQL query"
        # restricts the surface to reads in so many words: neither runs arbitrary code.
        return None
    return facts.exec_param


_SAID = "(the description's)"
# "Runs a database command", "Sends a T-SQL batch", "run a KQL query or a management (dot) command", "Executes
# CQL": what the tool runs is given by the caller. A query of a language named is run, as a statement is.
_RUNS_STATEMENTS = compiled(
    r"\b(?:run|runs|running|execute|executes|executing|send|sends|submit|submits|issue|issues|evaluate|evaluates)\b"
    r"[^.;:]{0,60}?(?:\b(?:commands?|statements?|batch(?:es)?|scripts?)\b"
    r"|(?<![\w-])(?:sql|t-sql|pl/sql|cypher|cql|sparql|kql|partiql|influxql|hiveql|hql|n1ql|sql\+\+|gremlin|aql"
    r"|flux|surrealql|edgeql|xquery)(?![\w-]))",
)


def _runs_statements(facts: SchemaFacts, cls: VerbClass | None, text: str) -> bool:
    """Whether a tool with no execution surface in its schema says it runs statements or commands given to it.

    `text` is the lower-cased description. A tool restricted to reads in so many words, or whose name's
    action stores what it is given, does not run it.
    """
    if facts.exec_reads_only or cls in _STORING or not any(s in text for s in _RUN_STEMS):
        return False
    return _RUNS_STATEMENTS.search(text) is not None and not reads_only(text)


_RUN_STEMS = ("run", "exec", "send", "submit", "issue", "evaluat")


def _local_files(tokens: tuple[str, ...]) -> bool:
    """Whether the name speaks of local files (``read_local_file``); ``local`` alone may mean nearby places."""
    return any(t == "local" and _FILE_WORDS.intersection(tokens[i + 1 : i + 3]) for i, t in enumerate(tokens))


def _apply_action_word(
    found: dict[Hint, Inferred], values: Mapping[Hint, bool], rule: str, *, corroborated: bool
) -> None:
    """Apply the name's action verb, whose word alone is moderate evidence that the tool destroys.

    The verb says whether the tool writes (``update_note``, ``delete_template``), but whether a write
    loses data depends on what the server keeps: versions, a trash, history. So ``destructive``
    true on the name's word alone infers the hint for a tool that declares none but does not set
    aside a `local` server's declared false. It is strong when the description says so too (its
    opening verb destroys: "Delete a file."; or "permanently", "cannot be undone", weak on their
    own), when a qualifier does (``force``, ``hard``), or when the verb means removal beyond
    recovery in English (``purge``, ``destroy``): `corroborated`.
    """
    destroys = values.get(Hint.DESTRUCTIVE)
    if not destroys:
        apply(found, values, rule)
        return
    apply(found, {hint: value for hint, value in values.items() if hint is not Hint.DESTRUCTIVE}, rule)
    kept = found.get(Hint.DESTRUCTIVE)
    corroborated = corroborated or (kept is not None and kept.value)
    own = strength_of(rule)
    strength = own if corroborated or own.rank < Strength.MODERATE.rank else Strength.MODERATE
    apply(found, {Hint.DESTRUCTIVE: True}, rule, strength=strength)


def _conflict(found: dict[Hint, Inferred], why: str) -> None:
    """Strong evidence disagrees with itself about read-only: take the riskier value and say why."""
    apply(found, _NOT_READ, "conflict.read-only", why)


def _open_world(
    found: dict[Hint, Inferred],
    tokens: tuple[str, ...],
    first: str,
    text: str,
    world: list[tuple[str, Mapping[Hint, bool]]],
) -> None:
    """Open when anything points outside, else closed when something points inside."""
    if _WEB_WORDS.intersection(tokens):
        apply(found, _OPEN, "name.web")
    elif WEB_RULE.matches(first):
        apply(found, _OPEN, WEB_RULE.rule)
    elif ATTACHMENT_RULE.matches(first):
        apply(found, _OPEN, ATTACHMENT_RULE.rule)
    elif world and world[0][1].get(Hint.OPEN_WORLD):
        apply(found, _OPEN, world[0][0])
    elif _LOCAL_WORDS.intersection(tokens) or _local_files(tokens):
        apply(found, _CLOSED, "name.local")
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
