"""Which parameter decides what a call does, found from the schema and texts, and never a crash on odd schemas."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.hints.calls import ArgumentJudge
from hintgate.hints.calls.roles import roles_of


def tool(properties: dict[str, Any], description: str = "", name: str = "tool") -> dict[str, Any]:
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": properties}}


@pytest.mark.parametrize(
    ("listed", "kind"),
    [
        (tool({"sql": {"type": "string"}}), "sql"),
        (
            tool({"payload": {"type": "string", "description": "Statement text passed verbatim to the MySQL server"}}),
            "sql",
        ),
        (tool({"q": {"type": "string", "format": "sql"}}), "sql"),
        (tool({"command": {"type": "string", "description": "The shell command to run"}}), "shell"),
        (
            tool(
                {"command": {"type": "array", "items": {"type": "string"}, "description": "Command and its arguments"}}
            ),
            "argv",
        ),
        (tool({"args": {"type": "array", "items": {"type": "string"}}}, "Run a git command.", "git_run"), "program"),
        (tool({"method": {"type": "string", "enum": ["GET", "POST"]}, "url": {"type": "string"}}), "method"),
        (tool({"action": {"type": "string", "enum": ["read", "write", "delete"]}}), "action"),
    ],
)
def test_the_parameter_that_decides_is_found_from_the_schema_and_its_words(listed: dict[str, Any], kind: str) -> None:
    assert kind in [r.kind for r in roles_of(listed)]


def test_a_search_string_named_query_is_no_statement() -> None:
    judge = ArgumentJudge.of(tool({"query": {"type": "string"}}, "Query the notes database."))
    assert judge is not None  # a statement may come: SELECT ... is judged as one
    assert judge.judge({"query": "meeting notes from monday"}) is None
    assert judge.judge({"query": "SELECT * FROM notes"}) is not None
    assert (
        ArgumentJudge.of(tool({"query": {"type": "string", "description": "Words to look for"}}, "Search the web."))
        is None
    )


@pytest.mark.parametrize(
    "properties",
    [
        {"sql": {"type": ["string", "null"]}},
        {"url": {"type": ["string", "integer"], "format": ["uri"]}, "method": {"type": "string"}},
        {"command": {"type": "array", "items": [{"type": "string"}]}},
        {"q": {"type": {"weird": True}, "format": {"x": 1}, "enum": "not a list"}},
    ],
)
def test_schemas_of_any_shape_are_read_without_failing(properties: dict[str, Any]) -> None:
    ArgumentJudge.of(tool(properties, "Execute a SQL statement or a shell command."))


def test_a_judge_that_fails_on_hostile_arguments_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    import hintgate.hints.calls as calls

    judge = ArgumentJudge.of(
        tool({"args": {"type": "array", "items": {"type": "string"}}}, "Run a git command.", "git")
    )
    assert judge is not None

    def broken(*_: object, **__: object) -> None:
        raise RecursionError("too deep")

    monkeypatch.setattr(calls, "judge_argv", broken)
    judged = judge.judge({"args": ["status"]})
    assert judged is not None
    assert judged.act is calls.Act.DESTRUCTIVE
