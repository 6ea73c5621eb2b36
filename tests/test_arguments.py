"""Arguments that do not match a tool's input schema are refused before anyone is asked."""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest

from hintgate.arguments import argument_problem
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
