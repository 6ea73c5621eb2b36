"""The gateway's pin keeper: what it logs, and at which level (an operator's decision is routine)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from hintgate.config.model import OpenApiConfig
from hintgate.hints.pins import PinState
from hintgate.server.pins import PinKeeper, source_texts
from hintgate.sources.openapi.source import OpenApiSource
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio


def tool(description: str, **annotations: bool) -> dict[str, Any]:
    return {"name": "t", "description": description, "inputSchema": {"type": "object"}, "annotations": annotations}


def levels(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    return [r.levelname for r in caplog.records if r.name == "hintgate.server.pins" and words in r.getMessage()]


async def test_an_operator_accepting_or_blocking_a_held_tool_is_logged_at_info(
    caplog: pytest.LogCaptureFixture,
) -> None:
    keeper = PinKeeper(None)
    keeper.observe({"s": [("s_t", tool("Read a note.", readOnlyHint=True))]})
    keeper.observe({"s": [("s_t", tool("Read a note, then mail it out.", readOnlyHint=True))]})
    assert keeper.by_key[("s", "t")].state is PinState.QUARANTINED
    with caplog.at_level(logging.DEBUG, logger="hintgate.server.pins"):
        await keeper.block(lambda pin: True, actor="bob", reason="mails notes out")
        await keeper.accept(lambda pin: True, actor="alice")
    assert levels(caplog, "kept blocked by bob") == ["INFO"]
    assert levels(caplog, "accepted by alice") == ["INFO"]


async def test_a_whitespace_change_is_logged_at_info_and_a_riskier_one_at_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    keeper = PinKeeper(None)
    keeper.observe({"s": [("s_t", tool("Read a note.", readOnlyHint=True))]})
    with caplog.at_level(logging.DEBUG, logger="hintgate.server.pins"):
        keeper.observe({"s": [("s_t", tool("Read  a note. ", readOnlyHint=True))]})
        keeper.observe({"s": [("s_t", tool("Read  a note. ", readOnlyHint=False))]})
    assert keeper.by_key[("s", "t")].state is PinState.ACCEPTED
    assert levels(caplog, "cosmetic") == ["INFO"]
    assert levels(caplog, "riskier") == ["WARNING"]


def test_what_a_server_says_besides_its_tools_is_its_instructions_and_its_prompts_and_resources() -> None:
    server = FakeSource("notes")
    server.instructions = "Use search first."
    day = {"name": "day", "description": "When"}
    server.prompts = [{"name": "brief", "description": "A brief.", "arguments": [day]}]
    server.resources = [{"uri": "file:///notes.md", "description": "All notes."}]
    assert source_texts(server) == [
        ("instructions", "Use search first."),
        ("prompts.brief.description", "A brief."),
        ("prompts.brief.arguments.day.description", "When"),
        ("resources.file:///notes.md.description", "All notes."),
    ]
    tools_only = OpenApiSource(OpenApiConfig(name="api", document="openapi.json", base_url="http://127.0.0.1:9"))
    assert source_texts(tools_only) == []


async def test_pins_are_found_by_server_and_listed_name_and_listed_in_order() -> None:
    keeper = PinKeeper(None)
    keeper.observe({"s": [("s_t", tool("Read a note.", readOnlyHint=True))]})
    keeper.observe({"a": [("a_t", tool("Read a file.", readOnlyHint=True))]})
    pin = keeper.get("s", "t")
    assert pin is not None
    assert pin.name == "s_t"
    assert keeper.get("s", "s_t") is None  # the name the server lists, not the public one
    assert [(p.server, p.name) for p in keeper.all()] == [("a", "a_t"), ("s", "s_t")]
