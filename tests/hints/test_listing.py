"""How much of a server's listing is served: the first tools up to the cap, none with an overlong text."""

from __future__ import annotations

from typing import Any

from hintgate.hints.listing import PROBLEM_LINES, served


def test_a_tool_with_an_overlong_text_or_nested_too_deep_is_not_served_and_said_so() -> None:
    honest = {"name": "get_note", "description": "Get a note.", "inputSchema": {"type": "object"}}
    long_description = {"name": "get_long", "description": "x" * 40_000}
    deep_schema: dict[str, Any] = {"name": "deep", "inputSchema": {}}
    level = deep_schema["inputSchema"]
    for _ in range(70):
        level["properties"] = {"a": {}}
        level = level["properties"]["a"]
    long_enum = {"name": "pick", "inputSchema": {"properties": {"k": {"enum": ["a", "y" * 40_000]}}}}
    kept, problems = served([honest, long_description, deep_schema, long_enum], most=10, text_length=32_768)
    assert kept == [honest]
    assert "tool 'get_long' is not served: its text at .description is 40,000 characters long" in problems[0]
    assert "tool 'deep' is not served: it is nested deeper than 64 levels" in problems[1]
    assert "tool 'pick' is not served: its text at .inputSchema.properties.k.enum[1]" in problems[2]


def test_the_first_tools_up_to_the_cap_are_served_and_the_rest_counted() -> None:
    tools = [{"name": f"t{i}", "description": "A tool."} for i in range(25)]
    kept, problems = served(tools, most=10, text_length=100)
    assert [t["name"] for t in kept] == [f"t{i}" for i in range(10)]
    assert problems == [
        "it lists 25 tools, more than the 10 served per server (limits.toolsPerServer): "
        "the 15 listed after the first 10 are not served"
    ]
    assert served(tools[:10], most=10, text_length=100) == (tools[:10], [])


def test_tools_left_out_for_their_texts_are_named_up_to_a_bound_and_the_rest_counted() -> None:
    tools = [{"name": f"t{i}", "description": "x" * 101} for i in range(PROBLEM_LINES + 5)]
    kept, problems = served(tools, most=100, text_length=100)
    assert kept == []
    assert len(problems) == PROBLEM_LINES + 1
    assert problems[-1] == "5 more tools are not served for the same reasons"
