"""Python tool definitions: the decorator, the MCP tool schema, hints declared or not, and registry search."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hintgate.hints.annotations import Annotations, Hint, resolve
from hintgate.hints.lint import lint_tools
from hintgate.hints.trust import Trust
from hintgate.tooldef import ToolDefinition, ToolRegistry, tool

pytestmark = pytest.mark.anyio


def test_to_mcp_schema_has_every_hint_explicit_in_spec_order() -> None:
    definition = ToolDefinition(
        name="example.tool",
        description="Example",
        handler=lambda: None,
        input_schema={"type": "object"},
        read_only_hint=True,
        destructive_hint=False,
    )
    expected = json.loads(
        """
        {
          "name": "example.tool",
          "description": "Example",
          "inputSchema": {"type": "object"},
          "annotations": {
            "readOnlyHint": true,
            "destructiveHint": false,
            "idempotentHint": true,
            "openWorldHint": true
          }
        }
        """
    )
    assert definition.to_mcp_schema() == expected
    assert json.dumps(definition.to_mcp_schema()) == json.dumps(expected)  # same key order too


def test_hints_not_given_read_as_the_spec_defaults_but_are_not_declared() -> None:
    definition = ToolDefinition("example.tool", "Example tool", lambda: "result", {"type": "object"})
    assert definition.read_only_hint is False
    assert definition.destructive_hint is True
    assert definition.idempotent_hint is False
    assert definition.open_world_hint is True
    assert definition.declared == {}
    assert "annotations" not in definition.to_mcp_tool()


@pytest.mark.parametrize(
    "declared",
    [
        {"read_only_hint": True},
        {"read_only_hint": True, "destructive_hint": True, "idempotent_hint": False},
        {"read_only_hint": False},
        {"read_only_hint": False, "destructive_hint": False, "idempotent_hint": True},
        {},
    ],
)
def test_to_mcp_schema_agrees_with_the_gateways_resolution_and_lint(declared: dict[str, bool]) -> None:
    definition = ToolDefinition("notes.item", "A note.", lambda: None, {"type": "object"}, **declared)
    emitted = definition.to_mcp_schema()["annotations"]
    given = Annotations.from_mcp(definition.to_mcp_tool().get("annotations"), tool="notes.item")
    served = resolve(declared=given, trust=Trust.TRUSTED).to_mcp()
    assert emitted == served
    report = lint_tools([definition.to_mcp_schema()], target="tooldef")
    assert "HG201" not in [f.code for f in report.findings]
    if declared.get("read_only_hint"):
        assert (emitted["destructiveHint"], emitted["idempotentHint"]) == (False, True)


def test_a_title_goes_into_the_annotations() -> None:
    definition = ToolDefinition(
        "praisonai.workflow.run", "Execute a workflow", lambda: None, {"type": "object"}, title="Run AI Workflow"
    )
    assert definition.to_mcp_schema()["annotations"]["title"] == "Run AI Workflow"


def test_category_and_tags_are_kept() -> None:
    definition = ToolDefinition(
        "web.search", "Search the web", lambda q: q, {"type": "object"}, category="web", tags=["search", "internet"]
    )
    assert definition.category == "web"
    assert definition.tags == ["search", "internet"]
    assert definition.to_mcp_tool()["_meta"] == {"hintgate/python": {"category": "web", "tags": ["search", "internet"]}}


def test_a_hint_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(TypeError, match="read_only_hint must be True, False or None"):
        ToolDefinition("t", "d", lambda: None, {"type": "object"}, read_only_hint="yes")  # type: ignore[arg-type]


def test_the_decorator_refuses_an_unknown_option_before_it_is_applied() -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'read_only'"):
        tool(read_only=True)  # type: ignore[call-overload]


def test_the_decorator_builds_the_input_schema_from_type_hints() -> None:
    @tool(read_only_hint=True)
    def get_weather(city: str, days: int = 3, units: str | None = None) -> str:
        """Get the weather forecast for a city."""
        return city

    assert isinstance(get_weather, ToolDefinition)
    assert get_weather.name == "get_weather"
    assert get_weather.description == "Get the weather forecast for a city."
    schema = get_weather.input_schema
    assert schema["type"] == "object"
    assert schema["required"] == ["city"]
    assert schema["properties"]["city"]["type"] == "string"
    assert schema["properties"]["days"]["default"] == 3
    assert get_weather("Paris") == "Paris"  # still callable as the function


def test_bare_decorator_works_and_takes_the_docstring() -> None:
    @tool
    def ping() -> str:
        """Answer pong."""
        return "pong"

    assert ping.name == "ping"
    assert ping.to_mcp_schema()["inputSchema"] == {"type": "object", "properties": {}}


def test_inference_fills_hints_not_given_only_when_asked() -> None:
    plain = ToolDefinition("memory.show", "Show memory contents", lambda: None, {"type": "object"})
    inferred = ToolDefinition("memory.show", "Show memory contents", lambda: None, {"type": "object"}, infer_hints=True)
    declared = ToolDefinition(
        "memory.show", "Show memory contents", lambda: None, {"type": "object"}, infer_hints=True, read_only_hint=False
    )
    assert plain.read_only_hint is False
    assert inferred.read_only_hint is True
    assert inferred.inferred()[Hint.READ_ONLY] is True
    assert declared.read_only_hint is False  # what the author said wins


async def test_calls_validate_arguments_run_sync_handlers_and_turn_exceptions_into_errors() -> None:
    @tool
    def add(a: int, b: int) -> dict[str, int]:
        """Add two numbers."""
        return {"sum": a + b}

    @tool
    async def fail() -> None:
        """Fail."""
        raise ValueError("no luck")

    ok = await add.call({"a": "2", "b": 3})
    assert ok["structuredContent"] == {"sum": 5}
    assert ok["isError"] is False
    bad = await add.call({"a": "two"})
    assert bad["isError"] is True
    failed = await fail.call({})
    assert failed == {"content": [{"type": "text", "text": "ValueError: no luck"}], "isError": True}


def make_registry() -> ToolRegistry:
    registry = ToolRegistry()
    for i in range(7):
        registry.register(
            ToolDefinition(
                f"memory.read_{i}",
                "Read memory",
                lambda: None,
                {"type": "object"},
                read_only_hint=True,
                category="memory",
                tags=["read", "memory"],
            )
        )
    registry.register(
        ToolDefinition(
            "file.delete", "Delete a file permanently", lambda: None, {"type": "object"}, category="files", tags=["io"]
        )
    )
    registry.register(
        ToolDefinition("config.set", "Set configuration", lambda: None, {"type": "object"}, idempotent_hint=True)
    )
    return registry


def test_search_filters_by_hints_category_tags_and_text() -> None:
    registry = make_registry()
    results, cursor, total = registry.search(read_only=True)
    assert total == 7
    assert cursor is None
    assert all(r.read_only_hint for r in results)
    assert [r.name for r in registry.search(destructive=True, category="files")[0]] == ["file.delete"]
    assert [r.name for r in registry.search(idempotent=True, read_only=False)[0]] == ["config.set"]
    assert registry.search(tags=["read", "memory"])[2] == 7
    assert registry.search(tags=["read", "io"])[2] == 0
    assert [r.name for r in registry.search(query="PERMANENTLY")[0]] == ["file.delete"]
    assert registry.search(open_world=False)[2] == 0


def test_search_pages_with_cursors_until_the_end() -> None:
    registry = make_registry()
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        results, cursor, total = registry.search(cursor=cursor, limit=3)
        seen += [r.name for r in results]
        pages += 1
        assert total == 9
        if cursor is None:
            break
    assert pages == 3
    assert seen == [d.name for d in registry]
    with pytest.raises(ValueError, match="invalid cursor"):
        registry.search(cursor="nonsense")


def test_registering_a_name_twice_is_refused() -> None:
    registry = ToolRegistry()

    @registry.tool
    def once() -> None:
        """Once."""

    with pytest.raises(ValueError, match="registered already"):
        registry.register(ToolDefinition("once", "again", lambda: None, {"type": "object"}))
    assert len(registry) == 1


def test_results_of_every_return_type(anyio_backend: Any) -> None:
    from hintgate.tooldef import result_of

    assert result_of("hi") == {"content": [{"type": "text", "text": "hi"}], "isError": False}
    assert result_of(None) == {"content": [], "isError": False}
    assert result_of([1, 2])["content"][0]["text"] == "[1, 2]"
    assert result_of(b"\x00")["content"][0]["resource"]["blob"] == "AA=="
