"""A stdio client's handshake and first listing, answered before the SDK is imported (`hintgate.server.front`)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

from hintgate.config.loading import parse_config
from hintgate.server.face import build_server
from hintgate.server.front import FirstAnswers, plain_initialize
from hintgate.server.gateway import Gateway
from hintgate.server.stdio import Replay
from hintgate.testing import FakeSource

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
HELLO = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _initialize(params: Any, request_id: Any = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": params}


async def _opened(gateway: Gateway, *messages: dict[str, Any]) -> tuple[list[dict[str, Any]], Replay]:
    """What `FirstAnswers` writes for `messages` (then the end of input), and what it hands the SDK."""
    queue = list(messages)
    written: list[dict[str, Any]] = []

    async def read() -> dict[str, Any] | None:
        return queue.pop(0) if queue else None

    async def write(message: dict[str, Any]) -> None:
        written.append(message)

    return written, await FirstAnswers(gateway).answer(read, write)


async def _sdk_answers(gateway: Gateway, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """The SDK's server's own answers to `messages`, over memory streams."""
    server = build_server(gateway)
    to_server, from_client = anyio.create_memory_object_stream[Any](10)
    to_client, from_server = anyio.create_memory_object_stream[Any](10)
    answers: list[dict[str, Any]] = []
    async with to_server, from_client, to_client, from_server, anyio.create_task_group() as tasks:
        tasks.start_soon(server.run, from_client, to_client, server.create_initialization_options())
        for message in messages:
            await to_server.send(SessionMessage(jsonrpc_message_adapter.validate_python(message, by_name=False)))
            if "id" in message:
                with anyio.fail_after(30):
                    answer = await from_server.receive()
                answers.append(json.loads(answer.message.model_dump_json(by_alias=True, exclude_unset=True)))
        tasks.cancel_scope.cancel()
    return answers


def _gateway() -> Gateway:
    tool = {"name": "lookup", "description": "Look an item up.", "inputSchema": {"type": "object"}}
    return Gateway(parse_config({"mcpServers": {}}), sources={"fake": FakeSource("fake", tools=[tool])})


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "1999-01-01"])
async def test_the_answer_to_initialize_and_the_first_listing_are_the_sdks(version: str) -> None:
    hello = {**HELLO, "protocolVersion": version}
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    async with _gateway() as gateway:
        written, replay = await _opened(gateway, _initialize(hello), INITIALIZED, listing)
        sdk = await _sdk_answers(gateway, _initialize(hello), INITIALIZED, listing)
    assert written == sdk
    assert [tool["name"] for tool in written[1]["result"]["tools"]] == ["fake_lookup"]
    # The SDK is handed the same three messages, the requests under ids of the opening's whose answers it drops.
    assert [m["method"] for m in replay.messages] == ["initialize", "notifications/initialized", "tools/list"]
    assert replay.dropped == {replay.messages[0]["id"], replay.messages[2]["id"]}
    assert not {1, 2} & replay.dropped


@pytest.mark.parametrize(
    "capabilities",
    [
        {"roots": {"listChanged": True}, "sampling": {}},
        {"elicitation": {"form": {}, "url": {}}, "experimental": {"x": {}}},
    ],
)
async def test_an_initialize_with_the_usual_capabilities_is_answered_as_the_sdk_answers_it(
    capabilities: dict[str, Any],
) -> None:
    hello = {**HELLO, "capabilities": capabilities, "clientInfo": {"name": "t", "version": "1", "title": "T"}}
    async with _gateway() as gateway:
        written, _ = await _opened(gateway, _initialize(hello))
        sdk = await _sdk_answers(gateway, _initialize(hello))
    assert written == sdk


@pytest.mark.parametrize(
    "params",
    [
        {**HELLO, "capabilities": {"extensions": {"io.modelcontextprotocol/tool-resolution": {}}}},
        {**HELLO, "capabilities": {"roots": {"listChanged": "yes"}}},
        {**HELLO, "capabilities": []},
        {**HELLO, "clientInfo": {"name": "t"}},
        {**HELLO, "clientInfo": {"name": "t", "version": "1", "icons": [{"src": "https://example.com/i.png"}]}},
        {**HELLO, "protocolVersion": MODERN},
        {**HELLO, "protocolVersion": 20251125},
        {**HELLO, "somethingElse": 1},
        None,
    ],
)
async def test_an_initialize_the_sdk_might_answer_otherwise_is_left_to_it(params: Any) -> None:
    message = _initialize(params)
    assert not plain_initialize(message)
    async with _gateway() as gateway:
        written, replay = await _opened(gateway, message, INITIALIZED)
    assert written == []
    assert replay == Replay([message])


@pytest.mark.parametrize(
    "second",
    [
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},  # before notifications/initialized
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "fake_lookup"}},
    ],
)
async def test_after_initialize_anything_but_the_plain_handshake_goes_to_the_sdk(second: dict[str, Any]) -> None:
    async with _gateway() as gateway:
        written, replay = await _opened(gateway, _initialize(HELLO), second, INITIALIZED)
    assert [m["id"] for m in written] == [1]
    assert replay.messages[1] == second
    assert replay.dropped == {replay.messages[0]["id"]}


async def test_a_paged_listing_goes_to_the_sdk() -> None:
    paged = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "MA=="}}
    async with _gateway() as gateway:
        written, replay = await _opened(gateway, _initialize(HELLO), INITIALIZED, paged)
    assert [m["id"] for m in written] == [1]
    assert replay.messages[-1] == paged


async def test_a_first_request_of_the_2026_07_28_era_goes_to_the_sdk_untouched() -> None:
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    listing = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}
    async with _gateway() as gateway:
        written, replay = await _opened(gateway, listing)
    assert written == []
    assert replay == Replay([listing])


def _demo_config(tmp_path: Path) -> Path:
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"]}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "policy": {"mode": "bypass"}}))
    return config


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_a_stdio_client_of_either_era_lists_and_calls_through_a_gateway_process(
    tmp_path: Path, mode: str
) -> None:
    config = _demo_config(tmp_path)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "hintgate", "serve", "--config", str(config), "--db", f"sqlite:///{tmp_path / 'calls.db'}"],
        env={**os.environ},
    )
    with (tmp_path / "stderr.log").open("w") as log:
        with anyio.fail_after(120):
            async with Client(stdio_client(params, errlog=log), mode=mode) as client:  # type: ignore[arg-type]
                names = {tool.name for tool in (await client.list_tools()).tools}
                assert "demo_create_note" in names
                made = await client.call_tool("demo_create_note", {"title": "t", "body": "b"})
                assert not made.is_error
                again = {tool.name for tool in (await client.list_tools()).tools}
                assert again == names
    calls = subprocess.run(
        [sys.executable, "-m", "hintgate", "calls", "--db", f"sqlite:///{tmp_path / 'calls.db'}", "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    recorded = json.loads(calls.stdout)
    assert [call["tool_name"] for call in recorded] == ["demo_create_note"]
    assert recorded[0]["session_id"]  # the session the SDK opened when it was handed the first listing


def test_nothing_of_the_sdk_but_its_protocol_versions_is_imported_before_the_first_listing(tmp_path: Path) -> None:
    script = """
import asyncio, sys
import hintgate.cli
from hintgate.config.loading import parse_config
from hintgate.server.front import FirstAnswers
from hintgate.server.gateway import Gateway

async def main():
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    queue = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    async def read():
        return queue.pop(0) if queue else None
    written = []
    async def write(message):
        written.append(message)
    # A real upstream: its start and listing change the catalog, which is told to no one yet.
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"]}
    async with Gateway(parse_config({"mcpServers": {"demo": demo}})) as gateway:
        await FirstAnswers(gateway).answer(read, write)
        await gateway.tools_changed()
    assert [m["id"] for m in written] == [1, 2], written
    assert written[1]["result"]["tools"], written
    print(sorted(m for m in sys.modules if m.split(".")[0] in ("mcp", "mcp_types")))

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=tmp_path)
    assert done.stdout.split() == ["['mcp',", "'mcp.client',", "'mcp.server',", "'mcp_types',", "'mcp_types.version']"]


def test_a_client_that_lists_and_leaves_at_once_still_has_its_session_recorded(tmp_path: Path) -> None:
    hello = {**HELLO, "clientInfo": {"name": "quick", "version": "1"}}
    lines = [_initialize(hello), INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    db = tmp_path / "calls.db"
    served = subprocess.run(
        [sys.executable, "-m", "hintgate", "serve", "--config", str(_demo_config(tmp_path)), "--db", f"sqlite:///{db}"],
        input="".join(json.dumps(line) + "\n" for line in lines),  # stdin ends with the listing
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answers = [json.loads(line) for line in served.stdout.splitlines()]
    assert [answer["id"] for answer in answers] == [1, 2]
    with closing(sqlite3.connect(db)) as connection:
        sessions = connection.execute("SELECT client_name, status FROM sessions").fetchall()
    assert sessions == [("quick", "closed")]


SLOW_SDK = """
import sys, time
import hintgate.server.face as face

built = face.build_server

def build_server(gateway):  # the SDK taking its time to import: a stop comes before it has the connection
    sys.stderr.write("building\\n")
    sys.stderr.flush()
    time.sleep(3)
    return built(gateway)

face.build_server = build_server
from hintgate.cli.entry import main
sys.argv = ["hintgate", *sys.argv[1:]]
main()
"""


def test_a_client_stopped_before_the_sdk_took_the_connection_over_still_has_its_session_recorded(
    tmp_path: Path,
) -> None:
    hello = {**HELLO, "clientInfo": {"name": "stopped", "version": "1"}}
    lines = [_initialize(hello), INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
    db = tmp_path / "calls.db"
    script = tmp_path / "slow_sdk.py"
    script.write_text(SLOW_SDK)
    args = [sys.executable, str(script), "serve", "--config", str(_demo_config(tmp_path)), "--db", f"sqlite:///{db}"]
    with subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as gateway:
        try:
            assert gateway.stdin is not None
            assert gateway.stdout is not None
            assert gateway.stderr is not None
            gateway.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
            gateway.stdin.flush()
            answers = [json.loads(gateway.stdout.readline()) for _ in range(2)]
            assert [answer["id"] for answer in answers] == [1, 2]
            while "building" not in gateway.stderr.readline():  # the SIGTERM comes while the SDK is made
                pass
            gateway.send_signal(signal.SIGTERM)
            assert gateway.wait(timeout=60) == 0
        finally:
            if gateway.poll() is None:
                gateway.kill()
                gateway.wait(timeout=30)
    with closing(sqlite3.connect(db)) as connection:
        sessions = connection.execute("SELECT client_name, status FROM sessions").fetchall()
    assert sessions == [("stopped", "closed")]
