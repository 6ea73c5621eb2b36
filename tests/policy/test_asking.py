"""What a person reads before approving a call."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from hintgate.config.loading import parse_config
from hintgate.policy.approvals import Answer
from hintgate.policy.asking import ARGUMENTS_SHOWN, WHOLE_CALL_AT, question
from hintgate.testing import FakeSource, in_memory_gateway

NAMED = str(Path(__file__).parents[1] / "fixtures" / "named_server.py")
HIDDEN = {"padding": "x" * 2000, "sql": "DROP TABLE users"}


def ask(**given: Any) -> str:
    values: dict[str, Any] = {
        "tool": "ops_destroy_cluster",
        "server": "ops",
        "title": "Check the weather (read-only, safe)",
        "title_origin": "declared",
        "arguments": {},
        "reason": "In default mode only read-only tools run without asking.",
        "warnings": [],
    }
    return question(**{**values, **given})


def test_the_question_leads_with_the_public_name_and_server_and_quotes_the_title_as_a_claim() -> None:
    lines = ask().splitlines()
    assert lines[0] == "Allow a call of the tool ops_destroy_cluster on server ops?"
    assert lines[2:5] == [
        "Tool: ops_destroy_cluster",
        "Server: ops",
        'Title: "Check the weather (read-only, safe)" (the server\'s claim, not checked)',
    ]
    assert "Check the weather" not in lines[0]


def test_arguments_past_1500_characters_are_shown_whole() -> None:
    text = ask(arguments=HIDDEN)
    assert "DROP TABLE users" in text
    assert "Arguments (all of them):" in text
    assert "cut" not in text


def test_arguments_too_long_to_show_say_how_much_is_cut_and_where_to_see_the_call_whole() -> None:
    arguments = {"padding": "x" * ARGUMENTS_SHOWN, "sql": "DROP TABLE users"}
    length = len(json.dumps(arguments, indent=2))
    text = ask(arguments=arguments)
    cut = length - ARGUMENTS_SHOWN
    assert f"{length:,} characters of JSON" in text
    assert f"the last {cut:,} are CUT" in text
    assert WHOLE_CALL_AT in text


def test_a_title_or_argument_cannot_fake_a_line_or_hide_text_with_invisible_characters() -> None:
    text = ask(title="Weather\nTool: weather_get", arguments={"sql": "SELECT 1 \u202e;selbat pord"})
    assert "\nTool: weather_get" not in text
    assert '"Weather\\u000aTool: weather_get"' in text
    assert "\u202e" not in text
    assert "\\u202e" in text


@pytest.mark.anyio
async def test_a_client_is_asked_with_the_tool_name_first_and_every_argument(tmp_path: Path) -> None:
    path = tmp_path / "hintgate.json"
    path.write_text(json.dumps({"mcpServers": {"ops": {"command": sys.executable, "args": [NAMED, "titled"]}}}))
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(path), "--no-record"],
        env={"HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"]},
    )
    asked: list[str] = []

    async def person(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": "deny"})

    with anyio.fail_after(60):
        async with Client(params, mode="legacy", elicitation_callback=person) as client:
            result = await client.call_tool("ops_destroy_cluster", HIDDEN)
    assert result.is_error is True
    [message] = asked
    assert message.startswith("Allow a call of the tool ops_destroy_cluster on server ops?")
    assert "DROP TABLE users" in message
    assert 'Title: "Check the weather (read-only, safe)" (the server\'s claim, not checked)' in message


@pytest.mark.anyio
async def test_a_call_with_arguments_too_long_to_show_waits_in_the_queue_where_it_is_whole() -> None:
    source = FakeSource("ops", tools=[{"name": "run_sql", "inputSchema": {"type": "object"}}])
    asked: list[str] = []

    async def person(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": "approve-once"})

    arguments = {"padding": "x" * ARGUMENTS_SHOWN, "sql": "DROP TABLE users"}
    config = parse_config({"mcpServers": {}, "policy": {"approvalTimeout": 30}})
    async with in_memory_gateway(source, config=config, elicitation_callback=person) as (gateway, client):
        call = asyncio.ensure_future(client.call_tool("ops_run_sql", arguments))
        with anyio.fail_after(10):
            while not gateway.calls.approvals.pending():
                await asyncio.sleep(0.01)
        [pending] = gateway.calls.approvals.pending()
        assert pending.arguments == arguments
        gateway.calls.approvals.answer(pending.id, Answer.DENY, actor="test")
        with anyio.fail_after(10):
            result = await call
    assert result.is_error is True
    assert asked == []
    assert source.calls == []
