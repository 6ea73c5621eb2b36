"""What `hintgate serve` does with broken input on stdin: a real gateway process spoken to in raw bytes."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from hintgate.server.stdio import LINE_LIMIT

pytestmark = pytest.mark.anyio


class RawClient:
    """A client that writes bytes to the gateway's stdin and reads its stdout line by line."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        assert process.stdin is not None
        assert process.stdout is not None
        self._stdin = process.stdin
        self._stdout = process.stdout

    async def send(self, data: bytes) -> None:
        self._stdin.write(data)
        await self._stdin.drain()

    async def receive(self) -> dict[str, Any]:
        async with asyncio.timeout(30):
            line = await self._stdout.readline()
        assert line, "the gateway closed its stdout (it died)"
        message: dict[str, Any] = json.loads(line)
        return message

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        await self.send(json.dumps(message).encode() + b"\n")
        return await self.receive()

    def call(self, request_id: Any, tool: str, arguments: dict[str, Any]) -> bytes:
        """A tools/call line with the given id, as raw bytes."""
        message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call"}
        message["params"] = {"name": tool, "arguments": arguments}
        return json.dumps(message).encode() + b"\n"

    async def still_serving(self, request_id: int) -> None:
        reply = await self.request({"jsonrpc": "2.0", "id": request_id, "method": "ping"})
        assert reply == {"jsonrpc": "2.0", "id": request_id, "result": {}}


@asynccontextmanager
async def raw_gateway(tmp_path: Path) -> AsyncIterator[RawClient]:
    """`python -m hintgate serve` with the demo server behind it, initialized over raw stdin/stdout."""
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"]}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "policy": {"mode": "bypass"}}))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}  # HOME and HINTGATE_DATA_DIR are the tests' own
    with (tmp_path / "stderr.log").open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "hintgate", "serve", "--config", str(config), "--no-record"),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env=env,
            limit=4 * 1024 * 1024,
        )
    client = RawClient(process)
    try:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
        reply = await client.request({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello})
        assert reply["result"]["protocolVersion"] == "2025-11-25"
        await client.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        yield client
    finally:
        if process.returncode is None:
            process.kill()
        async with asyncio.timeout(30):
            await process.wait()


async def test_a_line_over_the_limit_is_answered_and_skipped_and_the_gateway_keeps_serving(tmp_path: Path) -> None:
    async with raw_gateway(tmp_path) as client:
        # Over 64 MiB, a valid call: without a bound of its own the gateway died on it.
        huge = client.call(5, "demo_create_note", {"title": "huge", "body": "x" * (65 * 1024 * 1024)})
        await client.send(huge)
        reply = await client.receive()
        assert reply["id"] is None
        assert reply["error"]["code"] == -32600
        assert f"{LINE_LIMIT:,} bytes" in reply["error"]["message"]
        await client.still_serving(6)
        found = await client.request(json.loads(client.call(7, "demo_search_notes", {"query": "huge"})))
        assert found["result"]["structuredContent"]["result"] == []  # it never ran


async def test_invalid_json_and_bytes_that_are_not_utf8_get_a_parse_error(tmp_path: Path) -> None:
    async with raw_gateway(tmp_path) as client:
        for line in (b'{"jsonrpc":"2.0","id":3,"method":"ping"\n', b'{"jsonrpc":"2.0","id":4,"method":"p\xffing"}\n'):
            await client.send(line)
            reply = await client.receive()
            assert reply["id"] is None
            assert reply["error"]["code"] == -32700
            assert reply["error"]["message"].startswith("Parse error")
        await client.still_serving(5)


@pytest.mark.parametrize("bad_id", [None, [1], {"n": 1}, 1.5, True])
async def test_a_request_whose_id_is_not_a_string_or_integer_is_refused_and_not_run(
    tmp_path: Path, bad_id: Any
) -> None:
    async with raw_gateway(tmp_path) as client:
        await client.send(client.call(bad_id, "demo_create_note", {"title": "smuggled", "body": "b"}))
        reply = await client.receive()
        assert reply["id"] is None
        assert reply["error"]["code"] == -32600
        assert "not a string or an integer" in reply["error"]["message"]
        found = await client.request(json.loads(client.call("s", "demo_search_notes", {"query": "smuggled"})))
        assert found["id"] == "s"
        assert found["result"]["structuredContent"]["result"] == []


async def test_batches_and_messages_that_are_not_requests_are_answered_not_dropped(tmp_path: Path) -> None:
    async with raw_gateway(tmp_path) as client:
        for line in (b"[1,2]\n", b'"hello"\n', b'{"foo":1}\n'):
            await client.send(line)
            reply = await client.receive()
            assert (reply["id"], reply["error"]["code"]) == (None, -32600)
        # A request with a usable id but broken params is answered under its own id.
        await client.send(b'{"jsonrpc":"2.0","id":9,"method":"ping","params":[1]}\n')
        reply = await client.receive()
        assert (reply["id"], reply["error"]["code"]) == (9, -32600)
        await client.still_serving(10)
