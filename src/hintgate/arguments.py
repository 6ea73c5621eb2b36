"""A call's arguments checked against its tool's input schema, before anyone is asked about it.

Asking a person to approve a call its server will reject anyway wastes their
attention and teaches them to click through; a malformed call is refused
first, with what was wrong. Schemas are the tool's own `inputSchema`, checked
with the JSON Schema draft they declare (2020-12 when they declare none, as
MCP says). A schema that is itself invalid checks nothing: the server is the
judge of its own schema, and hintgate does not block calls on its mistake.

Every tools/call is checked, so the check is made cheap for the common case:
a schema's checks are found by the schema object itself (the catalog keeps
the same object from one call to the next), and a schema written only with
the plain keywords (types, properties, required, enums of strings, bounds,
patterns, anyOf/allOf...) of a draft it names (or none) is turned once into
a quick check that can only say "valid". Arguments it passes are valid;
anything else, and every schema beyond those keywords, goes through the full
validator (jsonschema, imported then: a gateway whose calls all pass the
quick check never holds it, about 2.5 MB), whose first problem is the one
reported.
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any

__all__ = ["QUICK_DRAFTS", "argument_problem"]

_SHOWN = 300  # characters of the problem in the refusal: a huge value is not echoed whole
_KEPT = 4096  # schemas whose validator is kept by identity

_Check = Callable[[Any], bool]
"""True only when the full validator would find nothing wrong (False: not known, ask the validator)."""


@cache
def _jsonschema() -> Any:
    """The jsonschema package, imported by the first check the quick one cannot settle."""
    import jsonschema  # type: ignore[import-untyped]
    import jsonschema.exceptions  # type: ignore[import-untyped]
    import jsonschema.validators  # type: ignore[import-untyped]

    return jsonschema


@lru_cache(maxsize=1024)
def _validator(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    jsonschema = _jsonschema()
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except jsonschema.exceptions.SchemaError:
        return None
    return cls(schema)


class _Checks:
    """One schema's checks: its quick check (None: there is none), and its validator once a call needed it."""

    __slots__ = ("_validator", "quick", "schema")

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = schema
        """Kept, so that its id is not reused while its checks are here."""
        self.quick = _quick_check(schema)
        self._validator: Any = _UNSET

    def validator(self) -> Any:
        """The schema's full validator (None: the schema is invalid, it checks nothing)."""
        if self._validator is _UNSET:
            try:
                self._validator = _validator(json.dumps(self.schema, sort_keys=True))
            except (TypeError, ValueError):
                self._validator = None
        return self._validator


_UNSET: Any = object()

# schema's id -> its checks
_by_schema: dict[int, _Checks] = {}


def _checking(schema: Mapping[str, Any]) -> _Checks:
    """The checks of `schema`, made at its first call."""
    kept = _by_schema.get(id(schema))
    if kept is not None and kept.schema is schema:
        return kept
    checks = _Checks(schema)
    while len(_by_schema) >= _KEPT:
        del _by_schema[next(iter(_by_schema))]  # the oldest
    _by_schema[id(schema)] = checks
    return checks


def argument_problem(schema: Any, arguments: Mapping[str, Any] | None) -> str | None:
    """Why `arguments` do not match `schema` (the first problem, with where), or None when they do.

    Args:
        schema: the tool's `inputSchema` as listed (a mapping; anything else checks nothing).
        arguments: the call's arguments (None is an empty object).
    """
    if not isinstance(schema, Mapping) or not schema:
        return None
    checks = _checking(schema)
    instance = dict(arguments or {})
    if checks.quick is not None and checks.quick(instance):
        return None
    validator = checks.validator()
    if validator is None:
        return None
    error = _jsonschema().exceptions.best_match(validator.iter_errors(instance))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    message = error.message if len(error.message) <= _SHOWN else error.message[: _SHOWN - 3] + "..."
    return f"arguments{where}: {message}"


# ------------------------------------------------------------ the quick check


_DRAFT_6 = frozenset(
    [
        "$ref",
        "additionalItems",
        "additionalProperties",
        "allOf",
        "anyOf",
        "const",
        "contains",
        "dependencies",
        "enum",
        "exclusiveMaximum",
        "exclusiveMinimum",
        "format",
        "items",
        "maxItems",
        "maxLength",
        "maxProperties",
        "maximum",
        "minItems",
        "minLength",
        "minProperties",
        "minimum",
        "multipleOf",
        "not",
        "oneOf",
        "pattern",
        "patternProperties",
        "properties",
        "propertyNames",
        "required",
        "type",
        "uniqueItems",
    ]
)
_DRAFT_7 = _DRAFT_6 | {"if"}
_DRAFT_2019_09 = (_DRAFT_7 - {"dependencies"}) | {
    "$recursiveRef",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedItems",
    "unevaluatedProperties",
}
_DRAFT_2020_12 = (_DRAFT_2019_09 - {"$recursiveRef", "additionalItems"}) | {"$dynamicRef", "prefixItems"}

QUICK_DRAFTS: Mapping[str | None, frozenset[str]] = {
    None: _DRAFT_2020_12,
    "http://json-schema.org/draft-06/schema": _DRAFT_6,
    "http://json-schema.org/draft-06/schema#": _DRAFT_6,
    "http://json-schema.org/draft-07/schema": _DRAFT_7,
    "http://json-schema.org/draft-07/schema#": _DRAFT_7,
    "https://json-schema.org/draft/2019-09/schema": _DRAFT_2019_09,
    "https://json-schema.org/draft/2019-09/schema#": _DRAFT_2019_09,
    "https://json-schema.org/draft/2020-12/schema": _DRAFT_2020_12,
    "https://json-schema.org/draft/2020-12/schema#": _DRAFT_2020_12,
}
"""The keywords the validator of each draft the quick check follows knows, by the `$schema` that names it (None:
none named, 2020-12 as MCP says). Drafts 6 to 2020-12 type values alike, and none of their validators checks
`format` unless asked (hintgate does not ask); draft 4's bounds and draft 3 differ, and a `$schema` not here is
left to the validator (`tests/test_arguments.py` holds the table to jsonschema's)."""


def _is_integer(instance: Any) -> bool:
    if isinstance(instance, bool):
        return False
    return isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())


def _is_number(instance: Any) -> bool:
    return isinstance(instance, numbers.Number) and not isinstance(instance, bool)


# The JSON types as those drafts' type checker tells them (an integral float is an integer, a bool no number).
_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "array": lambda instance: isinstance(instance, list),
    "boolean": lambda instance: isinstance(instance, bool),
    "integer": _is_integer,
    "null": lambda instance: instance is None,
    "number": _is_number,
    "object": lambda instance: isinstance(instance, dict),
    "string": lambda instance: isinstance(instance, str),
}


def _quick_check(schema: Mapping[str, Any]) -> _Check | None:
    """A check of the plain keywords that says "valid" only when the schema's validator would; None when a keyword
    is not plain or the draft is not one it follows (`QUICK_DRAFTS`).

    Keywords the validator does not know are ignored by it, and so here; `format` is an annotation (the
    validator checks no formats); anything else the validator knows (`$ref`, `oneOf`, `patternProperties`,
    `unevaluatedProperties`...) leaves the schema to the validator alone. A schema that is itself invalid may
    get a quick check: what it passes, such a schema lets pass too (it checks nothing).
    """
    draft = schema.get("$schema")
    keywords = QUICK_DRAFTS.get(draft) if draft is None or isinstance(draft, str) else None
    if keywords is None or not isinstance(schema, dict):
        return None
    try:
        return _Compiler(keywords).compile(schema, root=True)
    except (_NotPlain, RecursionError):
        return None


class _NotPlain(Exception):
    """The schema uses a keyword the quick check does not follow."""


def _always(_instance: Any) -> bool:
    return True


def _every(checks: tuple[_Check, ...]) -> _Check:
    def every(instance: Any) -> bool:
        for check in checks:  # noqa: SIM110 (a loop costs less than all() over a generator, on every call)
            if not check(instance):
                return False
        return True

    return every


class _Compiler:
    """Turns a schema into nested closures, keyword by keyword, as the validator reads them."""

    def __init__(self, keywords: frozenset[str]) -> None:
        self.keywords = keywords
        self.annotations = frozenset({"format"})
        self.makers: Mapping[str, Callable[[Any, Mapping[str, Any]], _Check]] = {
            "type": self._type,
            "properties": self._properties,
            "required": self._required,
            "additionalProperties": self._additional_properties,
            "items": self._items,
            "anyOf": self._any_of,
            "allOf": self._all_of,
            "enum": self._enum,
            "const": self._const,
            "minimum": lambda bound, _: _bound(bound, lambda instance: instance >= bound),
            "maximum": lambda bound, _: _bound(bound, lambda instance: instance <= bound),
            "exclusiveMinimum": lambda bound, _: _bound(bound, lambda instance: instance > bound),
            "exclusiveMaximum": lambda bound, _: _bound(bound, lambda instance: instance < bound),
            "minLength": lambda bound, _: _length(bound, str, lambda size: size >= bound),
            "maxLength": lambda bound, _: _length(bound, str, lambda size: size <= bound),
            "minItems": lambda bound, _: _length(bound, list, lambda size: size >= bound),
            "maxItems": lambda bound, _: _length(bound, list, lambda size: size <= bound),
            "pattern": self._pattern,
        }

    def compile(self, schema: Any, *, root: bool = False) -> _Check:
        if schema is True:
            return _always
        if not isinstance(schema, dict) or (not root and "$schema" in schema):
            raise _NotPlain  # false schemas, and a subschema that picks its own draft
        checks: list[_Check] = []
        for key, value in schema.items():
            if key not in self.keywords or key in self.annotations:
                continue
            make = self.makers.get(key)
            if make is None:
                raise _NotPlain
            checks.append(make(value, schema))
        if not checks:
            return _always
        return checks[0] if len(checks) == 1 else _every(tuple(checks))

    def _type(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not names or not all(n in _TYPES for n in names):
            raise _NotPlain
        if len(names) == 1:
            return _TYPES[names[0]]
        kinds = tuple(_TYPES[n] for n in names)
        return lambda instance: any(kind(instance) for kind in kinds)

    def _properties(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, dict):
            raise _NotPlain
        children = tuple((name, self.compile(sub)) for name, sub in value.items())

        def properties(instance: Any) -> bool:
            if isinstance(instance, dict):
                for name, check in children:
                    if name in instance and not check(instance[name]):
                        return False
            return True

        return properties

    def _required(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
            raise _NotPlain
        names = tuple(value)

        def required(instance: Any) -> bool:
            if isinstance(instance, dict):
                for name in names:
                    if name not in instance:
                        return False
            return True

        return required

    def _additional_properties(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        declared = schema.get("properties", {})
        if not isinstance(declared, dict) or "patternProperties" in schema:
            raise _NotPlain
        known = frozenset(declared)
        if value is True:
            return _always
        check = None if value is False else self.compile(value)

        def additional(instance: Any) -> bool:
            if isinstance(instance, dict):
                for key, item in instance.items():
                    if key not in known and (check is None or not check(item)):
                        return False
            return True

        return additional

    def _items(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, dict):
            raise _NotPlain  # tuple forms and boolean items are the validator's
        check = self.compile(value)
        return lambda instance: not isinstance(instance, list) or all(check(item) for item in instance)

    def _any_of(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, list) or not value:
            raise _NotPlain
        branches = tuple(self.compile(sub) for sub in value)
        return lambda instance: any(branch(instance) for branch in branches)

    def _all_of(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, list) or not value:
            raise _NotPlain
        return _every(tuple(self.compile(sub) for sub in value))

    def _enum(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, list):
            raise _NotPlain
        texts = frozenset(v for v in value if isinstance(v, str))
        # A string equals only a string; any other value is left to the validator's own equality.
        return lambda instance: isinstance(instance, str) and instance in texts

    def _const(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, str):
            raise _NotPlain
        return lambda instance: isinstance(instance, str) and instance == value

    def _pattern(self, value: Any, schema: Mapping[str, Any]) -> _Check:
        if not isinstance(value, str):
            raise _NotPlain
        try:
            search = re.compile(value).search
        except re.error:
            raise _NotPlain from None
        return lambda instance: not isinstance(instance, str) or search(instance) is not None


def _bound(bound: Any, passes: _Check) -> _Check:
    """A numeric bound: numbers must pass it, other values are not its business."""
    if not _is_number(bound):
        raise _NotPlain
    return lambda instance: not _is_number(instance) or passes(instance)


def _length(bound: Any, kind: type[str] | type[list[Any]], passes: Callable[[int], bool]) -> _Check:
    """A bound on the length of strings (characters) or arrays (items)."""
    if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
        raise _NotPlain
    return lambda instance: not isinstance(instance, kind) or passes(len(instance))
