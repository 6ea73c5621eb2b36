"""Approvals on the 2026-07-28 protocol, where a question and its answer are two requests.

Real HTTP clients (the MCP SDK's) of both protocol eras against `hintgate serve
--http`, the demo server behind it: a sealed answer runs one call once, for the
client asked, before `approvalTimeout`; "approve for this session" never
reaches another client that declares the same name and version.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

from hintgate.policy.asking import APPROVAL_KEY
from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
SAME_NAME = types.Implementation(name="shared-agent", version="1.0")
NOTE = {"title": "approved", "body": "b"}


@contextmanager
def gateway(tmp_path: Path, **policy: Any) -> Iterator[RunningGateway]:
    """A gateway over HTTP with the demo server: creating a note asks, searching does not.

    Trusted, so its declared hints count: create_note writes in a closed world
    (it taints nothing), search_notes only reads.
    """
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "policy": {"mode": "default", **policy}}))
    with running_gateway("--config", str(config), "--no-record") as running:
        yield running


async def never_asked(context: Any, params: Any) -> types.ElicitResult:
    raise AssertionError("these tests answer by hand")


@asynccontextmanager
async def client(running: RunningGateway, mode: str = MODERN, **kwargs: Any) -> AsyncIterator[Client]:
    kwargs.setdefault("elicitation_callback", never_asked)
    async with Client(running.mcp_transport(), mode=mode, client_info=SAME_NAME, **kwargs) as connected:  # type: ignore[arg-type]
        yield connected


def answer(decision: str) -> dict[str, Any]:
    return {APPROVAL_KEY: types.ElicitResult(action="accept", content={"decision": decision})}


async def ask(c: Client, arguments: dict[str, Any] = NOTE) -> types.InputRequiredResult:
    first = await c.session.call_tool("demo_create_note", arguments, allow_input_required=True)
    assert isinstance(first, types.InputRequiredResult), first
    assert first.request_state is not None
    return first


async def reply(c: Client, question: types.InputRequiredResult, decision: str) -> Any:
    return await c.session.call_tool(
        "demo_create_note",
        NOTE,
        input_responses=answer(decision),
        request_state=question.request_state,
        allow_input_required=True,
    )


async def notes_titled(c: Client, title: str) -> int:
    found = await c.call_tool("demo_search_notes", {"query": title})
    assert found.structured_content is not None
    return len(found.structured_content["result"])


def refused(result: Any, why: str) -> bool:
    return isinstance(result, types.CallToolResult) and result.is_error is True and why in result.content[0].text  # type: ignore[union-attr]


async def test_a_sealed_approve_once_runs_one_call_and_its_replay_is_refused_for_every_client(tmp_path: Path) -> None:
    with gateway(tmp_path) as running, anyio.fail_after(90):
        async with client(running) as a, client(running) as b:
            question = await ask(a)
            first = await reply(a, question, "approve-once")
            again = await reply(a, question, "approve-once")
            other = await reply(b, question, "approve-once")
            count = await notes_titled(a, "approved")
    assert isinstance(first, types.CallToolResult)
    assert first.is_error is False
    assert refused(again, "already used")
    assert refused(other, "already used")
    assert count == 1


async def test_an_answer_after_the_approval_timeout_is_refused_and_nothing_runs(tmp_path: Path) -> None:
    with gateway(tmp_path, approvalTimeout=1) as running, anyio.fail_after(90):
        async with client(running) as a:
            question = await ask(a)
            await anyio.sleep(1.5)  # past approvalTimeout: the question has expired (the seal itself lives longer)
            late = await reply(a, question, "approve-once")
            count = await notes_titled(a, "approved")
    assert refused(late, "expired")
    assert count == 0


async def test_approve_for_session_on_2026_07_28_is_not_inherited_by_a_client_declaring_the_same_name(
    tmp_path: Path,
) -> None:
    with gateway(tmp_path) as running, anyio.fail_after(90):
        async with client(running) as a, client(running) as b:
            question = await ask(a)
            offered = [c["const"] for c in _choices(question)]
            approved = await reply(a, question, "approve-session")
            # Same clientInfo, another client: it is asked, not waved through.
            b_first = await b.session.call_tool("demo_create_note", NOTE, allow_input_required=True)
            # The era has no session to remember an approval in: the same client is asked again too.
            a_again = await a.session.call_tool("demo_create_note", NOTE, allow_input_required=True)
            count = await notes_titled(a, "approved")
    assert "approve-session" not in offered
    assert offered == ["approve-once", "deny"]
    assert isinstance(approved, types.CallToolResult)
    assert approved.is_error is False
    assert isinstance(b_first, types.InputRequiredResult)
    assert isinstance(a_again, types.InputRequiredResult)
    assert count == 1


async def test_approve_for_session_on_a_handshake_era_connection_stays_with_that_connection(tmp_path: Path) -> None:
    asked: list[str] = []

    async def approve_for_session(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"decision": "approve-session"})

    with gateway(tmp_path) as running, anyio.fail_after(90):
        async with client(running, "legacy", elicitation_callback=approve_for_session) as a:
            await a.call_tool("demo_create_note", NOTE)
            await a.call_tool("demo_create_note", NOTE)
            async with client(running, "legacy", elicitation_callback=approve_for_session) as b:
                await b.call_tool("demo_create_note", NOTE)
    assert len(asked) == 2  # a once for its session, b once for its own


def _choices(question: types.InputRequiredResult) -> list[dict[str, Any]]:
    request = question.input_requests[APPROVAL_KEY]
    params = request.params.model_dump(by_alias=True, exclude_none=True)  # type: ignore[union-attr]
    choices: list[dict[str, Any]] = params["requestedSchema"]["properties"]["decision"]["oneOf"]
    return choices


async def test_an_answer_runs_its_call_once_through_whichever_replica_it_reaches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two replicas on one store and one `HINTGATE_STATE_KEY`: a question asked through one is answered
    through the other, as behind a load balancer without sticky routing, and the answer's replay through
    either finds it used (the record of used answers is the store's)."""
    monkeypatch.setenv("HINTGATE_STATE_KEY", "a-state-key-the-replicas-share-0123456789")
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "policy": {"mode": "default"}}))
    with (
        running_gateway("--config", str(config)) as first,
        running_gateway("--config", str(config)) as second,
        anyio.fail_after(120),
    ):
        async with client(first) as one, client(second) as two:
            question = await ask(one)
            answered = await reply(two, question, "approve-once")
            replayed = await reply(one, question, "approve-once")
            replayed_there = await reply(two, question, "approve-once")
            ran_on_second = await notes_titled(two, "approved")
            ran_on_first = await notes_titled(one, "approved")
    assert isinstance(answered, types.CallToolResult), answered
    assert answered.is_error is False, answered
    assert refused(replayed, "already used")
    assert refused(replayed_there, "already used")
    assert (ran_on_second, ran_on_first) == (1, 0)
