"""Hints from a tool's input schema: the parameters it asks for.

Only top-level properties are read; their names are tokenised like tool names
(``savePath`` and ``save_path`` alike). Rule ids:

| rule id | a property that | sets |
|---|---|---|
| schema.output-path | names where to save output (``savePath``, ``output_file``, a path "to save ... to") | RO F |
| schema.dry-run | is a dry-run switch: the tool changes something when it is off | RO F |
| schema.force-flag | is a ``force`` or ``overwrite`` switch | RO F, D T |
| schema.confirm-flag | asks for confirmation (``confirm``, ``confirmDrain``) | D T |
| schema.url-param | takes a URL to visit (``url``, ``urls``, ``uri``, ``href``) | OW T |
| schema.local-path | requires a local file or directory path (and no URL) | OW F |
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hintgate.hints.inference.naming import tokenize
from hintgate.hints.inference.rule import Effect, effect

__all__ = ["SchemaFacts", "schema_facts", "schema_rules"]

_PATH_WORDS = frozenset({"path", "paths", "file", "files", "filename", "filepath", "dir", "directory", "folder"})
_WHERE_WORDS = frozenset({"path", "paths", "filepath", "dir", "directory", "folder"})
_OUTPUT_WORDS = frozenset({"save", "output", "out", "dest", "destination", "target", "export"})
_URL_NAMES = frozenset({"url", "urls", "uri", "uris", "href", "link", "links", "website"})
_SAVE_TO = re.compile(r"\b(?:save|saves|saved|write|writes|written|store|stores)\b.{0,60}?\b(?:to|into|in)\b", re.I)

_OUTPUT_PATH = ("schema.output-path", effect(read_only=False))
_DRY_RUN = ("schema.dry-run", effect(read_only=False))
_FORCE = ("schema.force-flag", effect(read_only=False, destructive=True))
_CONFIRM = ("schema.confirm-flag", effect(destructive=True))
_URL = ("schema.url-param", effect(open_world=True))
_LOCAL_PATH = ("schema.local-path", effect(open_world=False))


class SchemaFacts:
    """What the rules need to know about a schema's top-level properties."""

    __slots__ = ("confirm", "dry_run", "force", "local_path", "output_path", "url")

    def __init__(self) -> None:
        self.output_path = False
        self.dry_run = False
        self.force = False
        self.confirm = False
        self.url = False
        self.local_path = False


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
    return facts


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
    world: list[tuple[str, Effect]] = []
    if facts.url:
        world.append(_URL)
    elif facts.local_path:
        world.append(_LOCAL_PATH)
    return effects, world
