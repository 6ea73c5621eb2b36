"""Arguments that do not match a tool's input schema are refused before anyone is asked."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import anyio
import jsonschema  # type: ignore[import-untyped]
import mcp_types as types
import pytest
from jsonschema.exceptions import SchemaError, best_match  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

from hintgate.arguments import QUICK_DRAFTS, argument_problem
from hintgate.config.loading import parse_config
from hintgate.testing import FakeSource, in_memory_gateway

pytestmark = pytest.mark.anyio

DELETE = {
    "name": "delete_note",
    "description": "Permanently delete a note.",
    "inputSchema": {
        "type": "object",
        "properties": {"id": {"type": "integer"}},
        "required": ["id"],
        "additionalProperties": False,
    },
}


async def test_a_malformed_call_is_refused_with_the_problem_and_nobody_is_asked() -> None:
    asked: list[str] = []

    async def person(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": "approve-once"})

    source = FakeSource("notes", tools=[DELETE], handlers={"delete_note": lambda a: "deleted"})
    config = parse_config({"mcpServers": {}, "policy": {"approvalTimeout": 5}})
    async with in_memory_gateway(source, config=config, elicitation_callback=person) as (_, client):
        with anyio.fail_after(20):
            bad = await client.call_tool("notes_delete_note", {"id": "seven"})
            good = await client.call_tool("notes_delete_note", {"id": 7})
    assert bad.is_error is True
    message = " ".join(getattr(block, "text", "") for block in bad.content)
    assert "do not match the tool's input schema: arguments.id: 'seven' is not of type 'integer'" in message
    assert len(asked) == 1  # only the well-formed call was put to a person
    assert good.is_error is False
    assert source.calls == [("delete_note", {"id": 7})]


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        ({}, "arguments: 'id' is a required property"),
        ({"id": 1, "force": True}, "arguments: Additional properties are not allowed ('force' was unexpected)"),
        ({"id": 1}, None),
    ],
)
def test_argument_problems_name_where(arguments: dict[str, Any], problem: str | None) -> None:
    assert argument_problem(DELETE["inputSchema"], arguments) == problem


def test_a_missing_or_invalid_schema_checks_nothing() -> None:
    assert argument_problem(None, {"x": 1}) is None
    assert argument_problem({}, {"x": 1}) is None
    assert argument_problem({"type": "no-such-type"}, {"x": 1}) is None


def _validator_says(schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """What the full validator of the schema's draft reports first, formatted as refusals are.

    The schema is read with its keys sorted, as hintgate reads it: the same schema written in
    another order gives the same problem.
    """
    schema = json.loads(json.dumps(schema, sort_keys=True))
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    error = best_match(cls(schema).iter_errors(arguments))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"arguments{where}: {error.message}"


VALUES: list[Any] = [
    None, True, False, 0, 1, -3, 2.0, 2.5, 10**20, "", "a", "UTC", "Europe/Paris", "12", "x" * 40,
    [], [1, 2], ["a", "b", "c"], [None], [[1]], {}, {"a": 1}, {"b": "c", "d": 2},
]  # fmt: skip
SUBSCHEMAS: list[Any] = [
    True,
    {},
    {"type": "string"},
    {"type": "integer"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "null"},
    {"type": "array"},
    {"type": "object"},
    {"type": ["string", "null"]},
    {"type": "string", "format": "date-time", "title": "When", "description": "d", "default": "x", "x-extra": 1},
    {"enum": ["a", "b", "UTC"]},
    {"enum": ["a", 1, None, True]},
    {"const": "a"},
    {"const": 1},
    {"type": "integer", "minimum": 0, "maximum": 10},
    {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 2.5},
    {"minimum": 1},
    {"type": "string", "minLength": 1, "maxLength": 3},
    {"minLength": 2},
    {"type": "string", "pattern": "^[A-Z][a-z]+/[A-Za-z_]+$"},
    {"pattern": "\\d"},
    {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2},
    {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
    {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
    {"anyOf": [{"type": "string"}, {"type": "null"}]},
    {"anyOf": [{"type": "integer", "minimum": 5}, {"type": "string", "maxLength": 1}]},
    {"allOf": [{"type": "string"}, {"minLength": 2}]},
    {"oneOf": [{"type": "integer"}, {"type": "number"}]},
    {"not": {"type": "string"}},
    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": False},
    {"type": "object", "additionalProperties": {"type": "string"}},
    {"type": "object", "patternProperties": {"^b": {"type": "string"}}, "additionalProperties": False},
    {"$ref": "#/$defs/name"},
    {"uniqueItems": True},
]


@pytest.mark.parametrize(
    "draft",
    [
        None,
        "http://json-schema.org/draft-06/schema",
        "http://json-schema.org/draft-07/schema#",
        "https://json-schema.org/draft/2019-09/schema",
        "https://json-schema.org/draft/2020-12/schema",
        "http://json-schema.org/draft-04/schema#",
    ],
)
@pytest.mark.parametrize("sub", SUBSCHEMAS)
def test_every_problem_and_every_acceptance_is_the_full_validators(draft: str | None, sub: Any) -> None:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"v": sub, "w": {"type": "string"}},
        "required": ["v"],
        "$defs": {"name": {"type": "string", "minLength": 2}},
    }
    if draft is not None:
        schema["$schema"] = draft
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError:
        pytest.skip("not a schema of this draft")
    for value in VALUES:
        for arguments in ({"v": value}, {"v": value, "w": 3}, {"w": "x"}, {"v": value, "extra": True}):
            assert argument_problem(schema, arguments) == _validator_says(schema, arguments), (sub, arguments)


def test_an_equal_schema_in_another_object_is_checked_the_same() -> None:
    first = {"type": "object", "properties": {"n": {"type": "integer"}}}
    second = json.loads(json.dumps(first))
    assert argument_problem(first, {"n": 1}) is None
    assert argument_problem(second, {"n": "1"}) == "arguments.n: '1' is not of type 'integer'"
    assert argument_problem(first, {"n": "1"}) == "arguments.n: '1' is not of type 'integer'"


@pytest.mark.parametrize("draft", list(QUICK_DRAFTS))
def test_the_quick_check_knows_the_keywords_each_drafts_validator_knows(draft: str | None) -> None:
    schema = {} if draft is None else {"$schema": draft}
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    assert frozenset(cls.VALIDATORS) == QUICK_DRAFTS[draft]
    # It types values as 2020-12 does and checks no format: the quick check's own rules.
    assert cls.TYPE_CHECKER is jsonschema.Draft202012Validator.TYPE_CHECKER
    assert cls(schema).format_checker is None


# Checks a call its schema's quick check passes, then one it does not, printing whether jsonschema was imported.
CHECK_AND_REPORT = textwrap.dedent(
    """
    import sys
    from hintgate.arguments import argument_problem

    schema = {"type": "object", "properties": {"timezone": {"type": "string"}}, "required": ["timezone"]}
    assert argument_problem(schema, {"timezone": "UTC"}) is None
    print("jsonschema" in sys.modules)
    print(argument_problem(schema, {"timezone": 3}))
    print("jsonschema" in sys.modules)
    """
)


def test_jsonschema_is_imported_only_by_a_call_the_quick_check_cannot_settle() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK_AND_REPORT], check=True, capture_output=True, text=True)
    assert done.stdout.splitlines() == ["False", "arguments.timezone: 3 is not of type 'string'", "True"]
