"""The `requestState` boundary built by the first request that needs it: nothing it guards is let through before.

A gateway loads the SDK's boundary (and the cryptography it seals with) with
its first 2026-07-28 request that carries a `requestState` or is answered with
an `InputRequiredResult`. Real gateways over HTTP with the demo server behind
them: a forged or unsealed state sent to a gateway that has sealed nothing yet
is refused as a tampered one is, and the first questions asked at once are each
sealed so that their answers open.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from hintgate.policy.asking import APPROVAL_KEY
from hintgate.server.state_boundary import LazyStateBoundary
from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
NOTE = {"title": "sealed", "body": "b"}
REFUSED = (-32602, "Invalid or expired requestState")


@contextmanager
def gateway(tmp_path: Path) -> Iterator[RunningGateway]:
    """A gateway over HTTP with the demo server, trusted: creating a note asks, searching does not."""
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "policy": {"mode": "default"}}))
    with running_gateway("--config", str(config), "--no-record") as running:
        yield running


async def never_asked(context: Any, params: Any) -> types.ElicitResult:
    raise AssertionError("these tests answer by hand")


def modern(running: RunningGateway) -> Client:
    return Client(running.mcp_transport(), mode=MODERN, elicitation_callback=never_asked)  # type: ignore[arg-type]


def approve_once() -> dict[str, Any]:
    return {APPROVAL_KEY: types.ElicitResult(action="accept", content={"decision": "approve-once"})}


async def notes_titled(c: Client, title: str) -> int:
    found = await c.call_tool("demo_search_notes", {"query": title})
    assert found.structured_content is not None
    return len(found.structured_content["result"])


async def answered_with(c: Client, state: str) -> Any:
    return await c.session.call_tool(
        "demo_create_note", NOTE, input_responses=approve_once(), request_state=state, allow_input_required=True
    )


async def test_a_forged_or_unsealed_state_is_refused_by_a_gateway_that_has_sealed_nothing_yet(tmp_path: Path) -> None:
    # What the pipeline itself puts in a state before the boundary seals it, sent as it is, and a token in the
    # codec's format the gateway never minted.
    unsealed = json.dumps({"session": "x", "expires": 4102444800, "nonce": "n"})
    forged = "v1." + "A" * 80
    with gateway(tmp_path) as running, anyio.fail_after(90):
        async with modern(running) as c:
            refusals = []
            for state in (unsealed, forged):
                with pytest.raises(MCPError) as refused:
                    await answered_with(c, state)
                refusals.append((refused.value.error.code, refused.value.error.message))
            created_by_refused = await notes_titled(c, "sealed")
            # The first question sealed after those refusals still opens when answered.
            question = await c.session.call_tool("demo_create_note", NOTE, allow_input_required=True)
            assert isinstance(question, types.InputRequiredResult), question
            assert question.request_state is not None
            answered = await answered_with(c, question.request_state)
            created = await notes_titled(c, "sealed")
    assert refusals == [REFUSED, REFUSED]
    assert created_by_refused == 0
    assert isinstance(answered, types.CallToolResult)
    assert answered.is_error is False
    assert created == 1


async def test_the_first_questions_asked_at_once_are_each_sealed_and_each_answer_runs_its_call(
    tmp_path: Path,
) -> None:
    questions: dict[int, types.InputRequiredResult] = {}
    with gateway(tmp_path) as running, anyio.fail_after(90):
        async with modern(running) as a, modern(running) as b:

            async def ask(number: int, c: Client) -> None:
                asked = await c.session.call_tool("demo_create_note", NOTE, allow_input_required=True)
                assert isinstance(asked, types.InputRequiredResult), asked
                questions[number] = asked

            async with anyio.create_task_group() as group:
                group.start_soon(ask, 0, a)
                group.start_soon(ask, 1, b)
            answers = []
            for number, c in ((0, a), (1, b)):
                state = questions[number].request_state
                assert state is not None
                answers.append(await answered_with(c, state))
            created = await notes_titled(a, "sealed")
    assert [isinstance(x, types.CallToolResult) and x.is_error is False for x in answers] == [True, True]
    assert created == 2


# -- the middleware alone --------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """What the middleware reads of a request (the SDK's context is a dataclass it replaces the params of)."""

    method: str
    params: dict[str, Any] | None
    session: Any = None
    request_id: Any = 1
    protocol_version: str = MODERN


def test_a_key_shorter_than_32_bytes_is_refused_as_the_server_is_built() -> None:
    with pytest.raises(ValueError, match="at least 32 bytes"):
        LazyStateBoundary("short", audience="hintgate")


async def test_requests_without_state_answered_complete_pass_without_loading_the_sdk_boundary() -> None:
    boundary = LazyStateBoundary(None, audience="hintgate")
    complete = {"content": [], "resultType": "complete"}

    async def handler(_ctx: Any) -> Any:
        return complete

    for method in ("tools/call", "prompts/get", "resources/read", "tools/list"):
        assert await boundary(Request(method, {"name": "t"}), handler) is complete
    assert await boundary(Request("tools/call", {"name": "t", "requestState": None}), handler) is complete
    assert boundary.built is False


async def test_a_question_is_sealed_and_its_answer_opened_to_what_the_handler_minted() -> None:
    boundary = LazyStateBoundary("k" * 32, audience="hintgate")
    seen: list[Any] = []

    async def asks(ctx: Any) -> Any:
        seen.append(ctx.params.get("requestState"))
        return {"resultType": "input_required", "inputRequests": {}, "requestState": "minted"}

    params = {"name": "t", "arguments": {"a": 1}}
    with anyio.fail_after(30):
        question = await boundary(Request("tools/call", params), asks)
        sealed = question["requestState"]
        assert boundary.built is True
        await boundary(Request("tools/call", {**params, "requestState": sealed}), asks)
        with pytest.raises(MCPError) as refused:  # bound to its arguments
            await boundary(Request("tools/call", {"name": "t", "arguments": {"a": 2}, "requestState": sealed}), asks)
    assert sealed not in ("minted", None)
    assert seen == [None, "minted"]
    assert (refused.value.error.code, refused.value.error.message) == REFUSED
