"""search_tools and call_tool as the gateway defines them: names, hints, arguments, answers, modes."""

from __future__ import annotations

from typing import Any

import pytest

from hintgate.discovery.served import (
    AUTO_THRESHOLD,
    BadArguments,
    SearchMode,
    SearchSettings,
    call_definition,
    own_names,
    parse_call,
    parse_search,
    search_answer,
    search_definition,
)
from hintgate.hints.annotations import Tier


def listed(name: str, **hints: bool) -> dict[str, Any]:
    return {"name": name, "annotations": hints}


def test_the_names_step_aside_for_an_upstreams_tools() -> None:
    assert own_names({"git_log"}) == ("search_tools", "call_tool")
    assert own_names({"search_tools"}) == ("hintgate_search_tools", "call_tool")
    assert own_names({"call_tool", "hintgate_call_tool"}) == ("search_tools", "hintgate_call_tool_2")


def test_search_tools_is_read_only_and_closed_world() -> None:
    hints = search_definition("search_tools", "call_tool")["annotations"]
    assert hints["readOnlyHint"] is True
    assert hints["openWorldHint"] is False
    assert hints["destructiveHint"] is False


def test_call_tool_carries_the_riskiest_hints_of_what_it_can_call() -> None:
    reads = [listed("a", readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)]
    assert call_definition("call_tool", "search_tools", reads)["annotations"]["readOnlyHint"] is True
    mixed = [*reads, listed("b", readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=True)]
    hints = call_definition("call_tool", "search_tools", mixed)["annotations"]
    assert hints == {
        "title": "Call a tool",
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": True,
    }
    write = listed("c", readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)
    additive = [*reads, write]
    assert call_definition("call_tool", "search_tools", additive)["annotations"]["destructiveHint"] is False


def test_call_tool_over_nothing_claims_no_safety() -> None:
    hints = call_definition("call_tool", "search_tools", [])["annotations"]
    assert hints["readOnlyHint"] is False
    assert hints["openWorldHint"] is True


def test_search_arguments_are_checked_with_their_path() -> None:
    assert parse_search({"query": "read", "limit": 3.0, "tier": "read-only", "tags": ["a"]}).tier is Tier.READ_ONLY
    for bad, where in [
        ({}, "arguments.query"),
        ({"query": " "}, "arguments.query"),
        ({"query": "x" * 1001}, "arguments.query"),
        ({"query": "x", "limit": 0}, "arguments.limit"),
        ({"query": "x", "limit": True}, "arguments.limit"),
        ({"query": "x", "readOnly": "yes"}, "arguments.readOnly"),
        ({"query": "x", "tier": "risky"}, "arguments.tier"),
        ({"query": "x", "server": 3}, "arguments.server"),
        ({"query": "x", "tags": "a"}, "arguments.tags"),
        ({"query": "x", "other": 1}, "arguments.other"),
    ]:
        with pytest.raises(BadArguments, match=where.replace(".", r"\.")):
            parse_search(bad)


def test_call_arguments_are_checked_with_their_path() -> None:
    assert parse_call({"name": "git_log", "arguments": {"n": 1}}) == ("git_log", {"n": 1})
    assert parse_call({"name": "git_log"}) == ("git_log", None)
    for bad, where in [({}, "arguments.name"), ({"name": "x", "arguments": [1]}, "arguments.arguments")]:
        with pytest.raises(BadArguments, match=where.replace(".", r"\.")):
            parse_call(bad)


def test_the_answer_is_structured_and_the_same_as_text() -> None:
    tool = {
        "name": "time_get_current_time",
        "title": "Get current time",
        "description": "Now.",
        "annotations": {"readOnlyHint": True},
        "_meta": {"hintgate/server": "time"},
    }
    answer = search_answer([(tool, 1.234567)])
    found = answer["structuredContent"]["tools"]
    assert found == [
        {
            "name": "time_get_current_time",
            "title": "Get current time",
            "description": "Now.",
            "annotations": {"readOnlyHint": True},
            "server": "time",
            "score": 1.2346,
        }
    ]
    import json

    assert json.loads(answer["content"][0]["text"]) == answer["structuredContent"]


def test_each_mode_lists_what_it_says() -> None:
    own = [listed("search_tools"), listed("call_tool")]
    few = [listed(f"t{i}") for i in range(AUTO_THRESHOLD)]
    many = [*few, listed("extra")]
    assert SearchSettings().listing(few, own) == few
    assert SearchSettings().listing(many, own) == [*many, *own]
    assert SearchSettings(SearchMode.ALWAYS).listing(few, own) == [*few, *own]
    assert SearchSettings(SearchMode.OFF).listing(many, own) == many
    only = SearchSettings(SearchMode.ONLY, always_list=("t1", "extr*"))
    assert [t["name"] for t in only.listing(many, own)] == ["search_tools", "call_tool", "t1", "extra"]
