"""Long-running calls through the gateway: the Tasks extension's handles and requests, routed per session.

The MCP SDK's own client, speaking 2026-07-28 and declaring the Tasks
extension, against `hintgate serve` (over streamable HTTP and over stdio)
with an SDK server that answers `build` with a task (tests/fixtures/task_server.py).
The task completes when the test calls `finish`, never after a wait; the
fixture writes each `tasks/cancel` it receives to a file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, Literal

import anyio
import httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict, Field, TypeAdapter
from tests.waiting import until

from hintgate.policy.asking import APPROVAL_KEY
from hintgate.server.tasks import NOT_FOUND
from hintgate.sources.resolution import RESOLUTION
from hintgate.sources.tasks import TASKS
from hintgate.sources.trust_annotations import TRUST
from hintgate.testing import RunningGateway, running_gateway

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
TASK_SERVER = str(Path(__file__).parents[1] / "fixtures" / "task_server.py")
STATE = TypeAdapter(dict[str, Any])


class TaskHandle(types.Result):
    """A `tools/call` answered with a task (`resultType: "task"`)."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = Field(alias="resultType")
    task_id: str = Field(alias="taskId")
    status: str


async def _never_resolved(handle: TaskHandle, ctx: ClaimContext) -> types.CallToolResult:
    raise AssertionError("these tests poll the task themselves")


class Tasks(ClientExtension):
    """The client side of the extension: declares it, and takes a task handle as a call's answer."""

    identifier = TASKS

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=TaskHandle, resolve=_never_resolved)]


class TaskRequest(types.Request[dict[str, Any], str]):
    """`tasks/get`, `tasks/update` or `tasks/cancel`; the task id goes in the `Mcp-Name` header too."""

    name_param = "taskId"


def config(tmp_path: Path, log: Path, **policy: Any) -> Path:
    path = tmp_path / "hintgate.json"
    builds = {"command": sys.executable, "args": [TASK_SERVER, str(log)]}
    rules = policy.pop("rules", [{"allow": {"server": "builds"}}])
    path.write_text(json.dumps({"mcpServers": {"builds": builds}, "policy": {"rules": rules, **policy}}))
    return path


@contextmanager
def http_gateway(tmp_path: Path, log: Path, **policy: Any) -> Iterator[RunningGateway]:
    with running_gateway("--config", str(config(tmp_path, log, **policy))) as running:
        yield running


@asynccontextmanager
async def client(running: RunningGateway, name: str = "agent", mode: str = MODERN, **kw: Any) -> AsyncIterator[Client]:
    info = types.Implementation(name=name, version="1.0")
    extensions = [Tasks()] if mode == MODERN else None
    async with Client(running.mcp_transport(), mode=mode, client_info=info, extensions=extensions, **kw) as c:  # type: ignore[arg-type]
        yield c


async def start(c: Client, target: str) -> TaskHandle:
    handle = await c.session.call_tool("builds_build", {"target": target}, allow_claimed=True)
    assert isinstance(handle, TaskHandle), handle
    return handle


async def task_request(c: Client, method: str, task_id: str, **params: Any) -> dict[str, Any]:
    answer: dict[str, Any] = await c.session.send_request(
        TaskRequest(method=method, params={"taskId": task_id, **params}), STATE
    )
    return answer


def cancels(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


def recorded(running: RunningGateway, tool: str) -> list[dict[str, Any]]:
    answer = httpx.get(f"{running.base_url}/api/calls", params={"tool": tool}, headers=running.headers, timeout=10)
    answer.raise_for_status()
    rows: list[dict[str, Any]] = answer.json()
    return rows


async def test_a_task_s_status_and_result_reach_the_client_through_the_gateway_over_http(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running) as c:
            advertised = (await c.session.send_discover(MODERN))["capabilities"].get("extensions")
            handle = await start(c, "alpha")
            working = await task_request(c, "tasks/get", handle.task_id)
            await c.call_tool("builds_finish", {"target": "alpha"})
            done = await task_request(c, "tasks/get", handle.task_id)
            again = await task_request(c, "tasks/get", handle.task_id)
        rows = until(lambda: recorded(running, "builds_build"), "the task's call recorded", within=30)
    assert handle.status == "working"
    assert len(handle.task_id) >= 40  # the gateway's own 256-bit id, not the server's
    assert working["status"] == "working"
    assert working["taskId"] == handle.task_id
    assert done["status"] == "completed"
    assert done["taskId"] == handle.task_id
    assert done["result"]["content"][0]["text"] == "built alpha"
    assert again["result"] == done["result"]
    # Tool Resolution and trust annotations are the gateway's own, always offered.
    assert advertised == {TASKS: {}, RESOLUTION: {}, TRUST: {}}
    (row,) = rows
    assert row["error"] is None
    assert row["verdict"] == "allow"
    assert row["duration_ms"] > 0
    assert "built alpha" in json.dumps(row["response"])
    assert cancels(log) == []


async def test_a_completed_task_s_result_is_scanned_as_any_result_and_every_poll_shows_the_scanned_one(
    tmp_path: Path,
) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running) as c:
            handle = await start(c, "mu")
            await c.call_tool("builds_poison", {"target": "mu"})
            first = await task_request(c, "tasks/get", handle.task_id)
            second = await task_request(c, "tasks/get", handle.task_id)
        rows = until(lambda: recorded(running, "builds_build"), "the poisoned call recorded", within=30)
    text = first["result"]["content"][0]["text"]
    assert text.startswith("built mu. [hintgate removed text addressed to the model (")
    assert "id_rsa" not in text
    assert second["result"] == first["result"]
    (row,) = rows
    assert row["response"]["content"] == first["result"]["content"]
    assert row["decision"]["result_findings"]


async def test_a_task_id_from_another_session_or_never_issued_is_answered_task_not_found(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running, "owner") as owner, client(running, "other") as other:
            handle = await start(owner, "alpha")
            refused: list[MCPError] = []
            for c, task_id in ((other, handle.task_id), (owner, handle.task_id[:-2] + "xx"), (owner, "1")):
                for method in ("tasks/get", "tasks/cancel", "tasks/update"):
                    with pytest.raises(MCPError) as raised:
                        await task_request(c, method, task_id, inputResponses={})
                    refused.append(raised.value)
            still = await task_request(owner, "tasks/get", handle.task_id)
            reached = cancels(log)  # nothing another session sent reached the server
        async with client(running, "owner", mode="legacy") as legacy:
            with pytest.raises(MCPError) as undeclared:
                await task_request(legacy, "tasks/get", handle.task_id)
    assert [e.code for e in refused] == [NOT_FOUND] * 9
    assert all("Task not found" in e.message for e in refused)
    assert still["status"] == "working"
    assert undeclared.value.code == -32021
    assert reached == []


async def test_a_client_that_takes_no_task_handles_gets_the_tool_s_result_once_the_task_ends(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    results: list[types.CallToolResult] = []
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        # A handshake-era client has no per-request capabilities: the gateway polls the task for it.
        async with client(running, "waiter", mode="legacy") as legacy, client(running, "signaller") as other:

            async def call() -> None:
                results.append(await legacy.call_tool("builds_build", {"target": "kappa"}))

            async with anyio.create_task_group() as group:
                group.start_soon(call)
                await other.call_tool("builds_finish", {"target": "kappa"})  # once the task exists
        rows = until(lambda: recorded(running, "builds_build"), "the polled call recorded", within=30)
    (result,) = results
    assert result.is_error is False
    assert result.content[0].text == "built kappa"  # type: ignore[union-attr]
    (row,) = rows
    assert row["error"] is None
    assert cancels(log) == []


async def test_a_client_that_takes_no_handles_and_cancels_its_call_stops_the_task_upstream(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        try:
            async with client(running, "waiter", mode="legacy") as legacy, client(running, "signaller") as other:
                async with anyio.create_task_group() as group:
                    group.start_soon(legacy.call_tool, "builds_build", {"target": "lambda"})
                    await other.call_tool("builds_created", {"target": "lambda"})
                    group.cancel_scope.cancel()
                with anyio.fail_after(30):  # polled on this loop: the client sends its cancellation on it
                    while not cancels(log):
                        await anyio.sleep(0.05)
        except* anyio.ClosedResourceError:
            # The gateway answers the cancelled call's POST once the task is stopped upstream; when that answer
            # reaches the SDK's HTTP client while the client closes, the client raises on its own closed stream
            # (`_handle_json_response`). That is the test's client, not the gateway: the upstream is checked below.
            pass
    (line,) = cancels(log)
    assert line.endswith(" lambda")


async def test_tasks_cancel_stops_the_task_upstream_and_the_call_is_recorded_as_cancelled(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running) as c:
            handle = await start(c, "beta")
            acknowledged = await task_request(c, "tasks/cancel", handle.task_id)
            after = await task_request(c, "tasks/get", handle.task_id)
        rows = until(lambda: recorded(running, "builds_build"), "the cancelled call recorded", within=30)
    assert acknowledged.get("taskId") is None
    assert after["status"] == "cancelled"
    (line,) = cancels(log)
    assert line.startswith("cancel ")
    assert line.endswith(" beta")
    assert handle.task_id not in line  # the server heard its own id, never the client's
    (row,) = rows
    assert "cancelled by its client" in row["error"]
    assert row["duration_ms"] > 0


async def test_a_failed_task_is_recorded_with_its_error(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running) as c:
            handle = await start(c, "gamma")
            await c.call_tool("builds_crash", {"target": "gamma"})
            failed = await task_request(c, "tasks/get", handle.task_id)
        rows = until(lambda: recorded(running, "builds_build"), "the failed call recorded", within=30)
    assert failed["status"] == "failed"
    assert failed["error"]["message"] == "gamma crashed"
    (row,) = rows
    assert row["error"] == "the task failed: gamma crashed"


async def _unasked(context: Any, params: Any) -> Any:
    raise AssertionError("these tests answer a task's questions with tasks/update")


async def test_a_task_s_input_requests_reach_the_client_and_its_tasks_update_answers_them(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running, elicitation_callback=_unasked) as c:
            handle = await start(c, "zeta")
            await c.call_tool("builds_ask", {"target": "zeta"})
            asking = await task_request(c, "tasks/get", handle.task_id)
            reply = {"name": {"action": "accept", "content": {"name": "Luca"}}}
            acknowledged = await task_request(c, "tasks/update", handle.task_id, inputResponses=reply)
            done = await task_request(c, "tasks/get", handle.task_id)
    assert asking["status"] == "input_required"
    assert asking["inputRequests"]["name"]["method"] == "elicitation/create"
    assert acknowledged.get("taskId") is None
    assert done["status"] == "completed"
    assert done["result"]["content"][0]["text"] == "built zeta for Luca"


async def test_a_task_s_sampling_request_to_a_client_that_never_declared_sampling_fails_it_and_cancels_it_upstream(
    tmp_path: Path,
) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running, elicitation_callback=_unasked) as c:  # elicitation, but no sampling
            handle = await start(c, "iota")
            await c.call_tool("builds_sample", {"target": "iota"})
            asked = await task_request(c, "tasks/get", handle.task_id)
        (line,) = until(lambda: cancels(log), "the task cancelled upstream", within=30)
        (row,) = until(lambda: recorded(running, "builds_build"), "the failed call recorded", within=30)
    assert asked["status"] == "failed"
    assert "inputRequests" not in asked
    assert "did not declare the sampling capability" in asked["error"]["message"]
    assert line.endswith(" iota")
    assert "sampling" in row["error"]


async def test_a_task_s_status_message_question_and_error_are_read_like_its_result(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with http_gateway(tmp_path, log) as running, anyio.fail_after(90):
        async with client(running, elicitation_callback=_unasked) as c:
            asking_handle = await start(c, "kappa")
            failing_handle = await start(c, "lambda")
            await c.call_tool("builds_whisper", {"target": "kappa"})
            await c.call_tool("builds_betray", {"target": "lambda"})
            asking = await task_request(c, "tasks/get", asking_handle.task_id)
            failed = await task_request(c, "tasks/get", failing_handle.task_id)
            # The words spoke to the model: the session is tainted, and a build (a write, as far as anyone
            # knows) now asks first.
            after = await c.session.call_tool(
                "builds_build", {"target": "mu"}, allow_input_required=True, allow_claimed=True
            )
    assert isinstance(after, types.InputRequiredResult), after
    assert asking["status"] == "input_required"
    assert "id_rsa" not in json.dumps(asking)
    assert asking["statusMessage"].startswith("Halfway. [hintgate removed text addressed to the model")
    assert asking["inputRequests"]["name"]["params"]["message"].startswith("Who is it for? [hintgate removed")
    assert failed["status"] == "failed"
    assert "id_rsa" not in json.dumps(failed)
    assert failed["error"]["message"].startswith("lambda crashed. [hintgate removed")


async def test_a_task_whose_http_session_goes_idle_is_cancelled_upstream_and_recorded_withdrawn(
    tmp_path: Path,
) -> None:
    log = tmp_path / "cancels.log"
    path = config(tmp_path, log)
    path.write_text(json.dumps({**json.loads(path.read_text()), "timeouts": {"sessionIdle": 1}}))
    with running_gateway("--config", str(path)) as running, anyio.fail_after(90):
        async with client(running) as c:
            await start(c, "theta")
        # The client says nothing more: its 2026-07-28 session ends a second after its last request.
        (line,) = until(lambda: cancels(log), "the idle session's task cancelled upstream", within=30)
        (row,) = until(lambda: recorded(running, "builds_build"), "the withdrawn call recorded", within=30)
    assert line.endswith(" theta")
    assert row["error"] == "withdrawn: its client's session ended while it ran; it was cancelled upstream"


async def test_a_call_that_asks_is_approved_once_and_its_task_requests_never_ask_again(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    rules = [{"ask": {"tool": "builds_build"}}, {"allow": {"server": "builds"}}]
    with http_gateway(tmp_path, log, rules=rules) as running, anyio.fail_after(90):
        async with client(running, elicitation_callback=answered_in_the_result) as c:
            question = await c.session.call_tool(
                "builds_build", {"target": "delta"}, allow_input_required=True, allow_claimed=True
            )
            assert isinstance(question, types.InputRequiredResult), question
            answer = {APPROVAL_KEY: types.ElicitResult(action="accept", content={"decision": "approve-once"})}
            handle = await c.session.call_tool(
                "builds_build",
                {"target": "delta"},
                input_responses=answer,  # type: ignore[arg-type]
                request_state=question.request_state,
                allow_input_required=True,
                allow_claimed=True,
            )
            assert isinstance(handle, TaskHandle), handle
            await c.call_tool("builds_finish", {"target": "delta"})
            done = await task_request(c, "tasks/get", handle.task_id)
        rows = until(lambda: recorded(running, "builds_build"), "the approved call recorded", within=30)
    assert done["status"] == "completed"
    (row,) = rows
    assert row["verdict"] == "approved"
    assert row["error"] is None


async def answered_in_the_result(context: Any, params: Any) -> types.ElicitResult:
    raise AssertionError("on 2026-07-28 the question comes in the call's result")


def stdio_client(tmp_path: Path, log: Path, mode: str = MODERN, **kw: Any) -> Client:
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config(tmp_path, log)), "--db", db],
        env={"PYTHONUNBUFFERED": "1", "HINTGATE_DATA_DIR": os.environ["HINTGATE_DATA_DIR"], "HOME": os.environ["HOME"]},
    )
    info = types.Implementation(name="agent", version="1.0")
    return Client(params, mode=mode, client_info=info, extensions=[Tasks()] if mode == MODERN else None, **kw)


def stored_calls(tmp_path: Path) -> list[dict[str, Any]]:
    db = f"sqlite:///{tmp_path / 'calls.db'}"
    listed = subprocess.run(
        [sys.executable, "-m", "hintgate", "calls", "--tool", "builds_build", "--format", "json", "--db", db],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    rows: list[dict[str, Any]] = json.loads(listed.stdout)
    return rows


async def test_over_stdio_a_task_completes_and_a_departed_client_s_task_is_cancelled_upstream(tmp_path: Path) -> None:
    log = tmp_path / "cancels.log"
    with anyio.fail_after(90):
        async with stdio_client(tmp_path, log) as c:
            finished = await start(c, "alpha")
            await c.call_tool("builds_finish", {"target": "alpha"})
            done = await task_request(c, "tasks/get", finished.task_id)
            await start(c, "omega")  # left running: its client goes away
    lines = until(lambda: cancels(log), "the departed client's task cancelled upstream", within=30)
    rows = stored_calls(tmp_path)
    assert done["status"] == "completed"
    assert done["result"]["content"][0]["text"] == "built alpha"
    (line,) = lines
    assert line.endswith(" omega")
    errors = sorted(str(row["error"]) for row in rows)
    # The client left, so the gateway stopped, and its stdio server with it.
    assert errors == [
        "None",
        "withdrawn: the gateway stopped while it ran, and its server with it; it was cancelled upstream",
    ]


async def test_over_stdio_a_handshake_era_client_answers_the_task_s_question_and_gets_its_result(
    tmp_path: Path,
) -> None:
    log = tmp_path / "cancels.log"
    asked: list[str] = []
    results: list[types.CallToolResult] = []

    async def answer(context: Any, params: Any) -> types.ElicitResult:
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"name": "Luca"})

    with anyio.fail_after(90):
        async with stdio_client(tmp_path, log, mode="legacy", elicitation_callback=answer) as c:

            async def call() -> None:
                results.append(await c.call_tool("builds_build", {"target": "nu"}))

            async with anyio.create_task_group() as group:
                group.start_soon(call)
                await c.call_tool("builds_ask", {"target": "nu"})  # once the task exists
    (result,) = results
    assert asked == ["Who is it for?"]
    assert result.is_error is False
    assert result.content[0].text == "built nu for Luca"  # type: ignore[union-attr]
