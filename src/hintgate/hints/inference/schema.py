"""Hints from a tool's input schema: the parameters it asks for.

Only top-level properties are read; their names are tokenised like tool names
(``savePath`` and ``save_path`` alike). Rule ids:

| rule id | a property that | sets |
|---|---|---|
| schema.output-path | names where to save output (``savePath``, ``output_file``, a path "to save ... to") | RO F |
| schema.dry-run | is a dry-run switch: the tool changes something when it is off | RO F |
| schema.force-flag | is a ``force`` or ``overwrite`` switch | RO F, D T |
| schema.confirm-flag | asks for confirmation (``confirm``, ``confirmDrain``) | D T |
| schema.exec-surface | holds code, SQL, a query language, a shell command, a script or an expression | RO F, I F |
| schema.action-enum | picks the action (``action``, ``operation``) among choices one of which writes | riskiest |
| schema.url-param | takes a URL to visit (``url``, ``urls``, ``uri``, ``href``) | OW T |
| schema.local-path | requires a local file or directory path (and no URL) | OW F |
| schema.export-path | of an export or download says where to save the copy (path, directory) | RO F |

Every schema rule is weak evidence (`hintgate.hints.inference.rule.WEAK_RULES`) but
``schema.export-path``: there the name's action says a copy is made, and the
property where it is written, which is strong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hintgate.hints.inference.naming import parse_name, tokenize
from hintgate.hints.inference.rule import Effect, cautious_merge, effect
from hintgate.scan.deferred import compiled

__all__ = ["EXEC_SURFACE", "SchemaFacts", "exec_surface", "reads_only", "schema_facts", "schema_rules"]

_PATH_WORDS = frozenset({"path", "paths", "file", "files", "filename", "filepath", "dir", "directory", "folder"})
_WHERE_WORDS = frozenset({"path", "paths", "filepath", "dir", "directory", "folder"})
_OUTPUT_WORDS = frozenset({"save", "output", "out", "dest", "destination", "target", "export"})
_URL_NAMES = frozenset({"url", "urls", "uri", "uris", "href", "link", "links", "website"})
_SAVE_TO = compiled(r"\b(?:save|saves|saved|write|writes|written|store|stores)\b.{0,60}?\b(?:to|into|in)\b", re.I)

# Execution surfaces: a free-form string whose content the tool runs. What the
# call does then depends on the argument, not on the tool's name: "query" may
# be a SELECT or a DROP. A parameter counts by its name when the name is the
# thing itself (``sql``, ``script``, ``command``) and by its description,
# ``format`` or examples when they name a language or say it is run.
_EXEC_NAMES = frozenset(
    {"sql", "code", "script", "command", "cmd", "shell", "cypher", "statement", "statements", "expression"}
    | {"javascript", "js", "python", "bash", "graphql", "snippet", "program", "eval"}
)
_EXEC_LAST = frozenset({"sql", "script", "command", "cmd", "cypher", "statement", "statements", "snippet"})
_LANGUAGES = r"(?:sql|cypher|graphql|javascript|typescript|python|shell|bash|powershell|lua|ruby|js)"
_SURFACES = r"(?:quer(?:y|ies)|code|scripts?|commands?|statements?|expressions?|functions?|source|snippets?|programs?)"
_EXEC_TEXT = compiled(
    rf"\b{_LANGUAGES}\s+(?:\w+\s+)?{_SURFACES}\b"
    rf"|\b(?:{_LANGUAGES}|{_SURFACES}) to (?:run|execute|evaluate|apply)\b"
    r"|\bsource code\b|\bquery language\b|\b(?:shell|terminal) command",
    re.I,
)
# A cheap pre-check before `_EXEC_TEXT`: most parameter descriptions mention none of these.
_EXEC_STEMS = (
    *("sql", "cypher", "graphql", "script", "python", "shell", "bash", "lua", "ruby", " js "),
    *("source code", "query language", "to run", "to exec", "to eval", "to apply"),
)
_EXEC_FORMATS = frozenset({"sql", "javascript", "python", "shell", "bash", "cypher", "graphql", "code"})
_READS_ONLY = compiled(
    r"\bread[- ]only\b(?:\s+\w+){0,3}?\s+(?:sql\s+)?(?:quer(?:y|ies)|statements?|sql)\b"
    r"|\bread (?:\w+ )?(?:quer(?:y|ies)|statements?)\b"
    r"|\bonly (?:select|read|read-only)\b|\bselect (?:statements|queries) only\b"
    r"|\b(?:must|should|can only) be (?:a )?(?:read-only|select)\b",
    re.I,
)


def reads_only(text: str) -> bool:
    """Whether `text` restricts an execution surface to reads in so many words ("read-only SQL query")."""
    return _READS_ONLY.search(text) is not None


EXEC_SURFACE = "schema.exec-surface"
"""The rule id of an execution surface."""

ACTION_ENUM = "schema.action-enum"
"""The rule id of an ``action`` parameter whose choices include a writing action."""

# A parameter that picks what the tool does ("action": ["list", "create"]): its
# choices are actions, and a tool is as risky as the riskiest it offers.
_ACTION_NAMES = frozenset({"action", "actions", "operation", "op", "command", "subcommand", "verb", "method"})

_OUTPUT_PATH = ("schema.output-path", effect(read_only=False))
_DRY_RUN = ("schema.dry-run", effect(read_only=False))
_FORCE = ("schema.force-flag", effect(read_only=False, destructive=True))
_CONFIRM = ("schema.confirm-flag", effect(destructive=True))
_URL = ("schema.url-param", effect(open_world=True))
_LOCAL_PATH = ("schema.local-path", effect(open_world=False))
_EXEC = (EXEC_SURFACE, effect(read_only=False, idempotent=False))


@dataclass(slots=True, eq=False)
class SchemaFacts:
    """What the rules need to know about a schema's top-level properties (filled in by `schema_facts`)."""

    exec_param: str | None = None
    exec_reads_only: bool = False
    output_path: bool = False
    dry_run: bool = False
    force: bool = False
    confirm: bool = False
    url: bool = False
    local_path: bool = False
    action_effect: Effect | None = None
    where_param: str | None = None


def schema_facts(input_schema: Mapping[str, Any] | None) -> SchemaFacts:
    """Read the top-level properties of a JSON Schema into `SchemaFacts`."""
    facts = SchemaFacts()
    if not isinstance(input_schema, Mapping):
        return facts
    properties = input_schema.get("properties")
    if not isinstance(properties, Mapping):
        return facts
    required = input_schema.get("required")
    required = frozenset(required) if isinstance(required, list) else frozenset()
    for name, raw in properties.items():
        if not isinstance(name, str):
            continue
        words = tokenize(name)
        if not words:
            continue
        spec: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        description = spec.get("description")
        description = description if isinstance(description, str) else ""
        last = words[-1]
        joined = "".join(words)
        if last in _PATH_WORDS or joined in _PATH_WORDS:
            output = bool(_OUTPUT_WORDS.intersection(words))
            # A bare file *name* is placed by the server in its own output area;
            # a path or directory can point anywhere on disk.
            anywhere = bool(_WHERE_WORDS.intersection(words)) or joined == "filepath"
            if (anywhere or output) and facts.where_param is None:
                facts.where_param = name
            if output or (anywhere and _SAVE_TO.search(description)):
                facts.output_path = True
            elif name in required:
                facts.local_path = True
        if joined == "dryrun":
            facts.dry_run = True
        elif words[0] == "force" or joined in {"overwrite", "overwriteexisting"}:
            facts.force = True
        elif words[0] == "confirm" and spec.get("type") in {"boolean", None}:
            facts.confirm = True
        if joined in _URL_NAMES or (last in {"url", "urls"} and words[0] in {"target", "page", "start"}):
            facts.url = True
        if joined in _ACTION_NAMES and isinstance(spec.get("enum"), list):
            facts.action_effect = _action_effect(spec["enum"]) or facts.action_effect
        if facts.exec_param is None and exec_surface(spec, words, description):
            facts.exec_param = name
            facts.exec_reads_only = reads_only(description)
    return facts


def exec_surface(spec: Mapping[str, Any], words: tuple[str, ...], description: str) -> bool:
    """Whether a property (its schema `spec`, its name's `words`) is a free-form string the tool runs.

    A string without ``enum`` or ``const``, named for what it holds (``sql``,
    ``code``, ``command``, ``initScript``) or described, formatted or
    exemplified as code, SQL, a query language, a shell command, a script or
    an expression to run. ``query`` alone is a search string, not a surface.
    """
    kind = spec.get("type", "string")
    if kind != "string" or "enum" in spec or "const" in spec:
        return False
    fmt = spec.get("format")
    if isinstance(fmt, str) and fmt.lower() in _EXEC_FORMATS:
        return True
    joined = "".join(words)
    if joined in _EXEC_NAMES or words[-1] in _EXEC_LAST:
        # An identifier that is named like code ("service_code") says so in its description.
        return not _IDENTIFIER.search(description)
    lowered = description.lower()
    if any(stem in lowered for stem in _EXEC_STEMS) and _EXEC_TEXT.search(description):
        return not _IDENTIFIER.search(description)
    examples = spec.get("examples")
    if isinstance(examples, list):
        text = " ".join(e for e in examples if isinstance(e, str))
        return bool(_CODE_EXAMPLE.search(text))
    return False


_IDENTIFIER = compiled(
    r"\b(?:identifier|id|name|slug|code unit)\b(?! of the (?:query|script|command))|\be\.g\., \"", re.I
)
_CODE_EXAMPLE = compiled(
    r"\b(?:select|insert|update|delete|match|create)\b .*\b(?:from|into|set|return)\b|=>|\bfunction\s*\(", re.I
)


def _action_effect(values: list[Any]) -> Effect | None:
    """The riskiest of the actions an ``action`` enum offers, when one of them writes."""
    classes = [
        cls for v in values if isinstance(v, str) and (cls := parse_name(v).verb_class) is not None and not cls.opaque
    ]
    if not any(not cls.reads for cls in classes):
        return None
    return cautious_merge(cls.values for cls in classes)


def schema_rules(facts: SchemaFacts) -> tuple[list[tuple[str, Effect]], list[tuple[str, Effect]]]:
    """The schema rules that match: (side-effect rules, open-world rules), in order."""
    effects: list[tuple[str, Effect]] = []
    if facts.output_path:
        effects.append(_OUTPUT_PATH)
    if facts.dry_run:
        effects.append(_DRY_RUN)
    if facts.force:
        effects.append(_FORCE)
    if facts.confirm:
        effects.append(_CONFIRM)
    if facts.exec_param is not None and not facts.exec_reads_only:
        effects.append(_EXEC)
    if facts.action_effect is not None:
        effects.append((ACTION_ENUM, facts.action_effect))
    world: list[tuple[str, Effect]] = []
    if facts.url:
        world.append(_URL)
    elif facts.local_path:
        world.append(_LOCAL_PATH)
    return effects, world
