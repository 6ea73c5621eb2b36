"""A call's arguments checked against its tool's input schema, before anyone is asked about it.

Asking a person to approve a call its server will reject anyway wastes their
attention and teaches them to click through; a malformed call is refused
first, with what was wrong. Schemas are the tool's own `inputSchema`, checked
with the JSON Schema draft they declare (2020-12 when they declare none, as
MCP says). A schema that is itself invalid checks nothing: the server is the
judge of its own schema, and hintgate does not block calls on its mistake.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

__all__ = ["argument_problem"]

_SHOWN = 300  # characters of the problem in the refusal: a huge value is not echoed whole


@lru_cache(maxsize=1024)
def _validator(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError:
        return None
    return cls(schema)


def argument_problem(schema: Any, arguments: Mapping[str, Any] | None) -> str | None:
    """Why `arguments` do not match `schema` (the first problem, with where), or None when they do.

    Args:
        schema: the tool's `inputSchema` as listed (a mapping; anything else checks nothing).
        arguments: the call's arguments (None is an empty object).
    """
    if not isinstance(schema, Mapping) or not schema:
        return None
    try:
        validator = _validator(json.dumps(schema, sort_keys=True))
    except (TypeError, ValueError):
        return None
    if validator is None:
        return None
    error = jsonschema.exceptions.best_match(validator.iter_errors(dict(arguments or {})))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    message = error.message if len(error.message) <= _SHOWN else error.message[: _SHOWN - 3] + "..."
    return f"arguments{where}: {message}"
