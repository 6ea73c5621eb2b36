"""MCP over this process's stdin and stdout, on the event loop's own pipes.

The MCP SDK's `stdio_server()` reads and writes through a worker thread,
three thread hand-offs per forwarded call; measured here that was about a
third of what the gateway added to a call (bench/gateway_latency.py). This
transport reads and writes the same newline-delimited JSON-RPC on asyncio
pipe transports instead, and yields the streams the SDK's `Server.run()`
takes, so the protocol handling stays the SDK's.

One exception, the hot path: a `tools/call` on a connection that finished
the 2025-11-25 handshake can go to a `DirectCalls` handler straight from the
parsed line, skipping the SDK's dispatcher and its model validation both ways
(measured: about half the CPU the gateway spent per call). Its cancellation
(`notifications/cancelled`) is honoured here too; everything else, the
handshake included, is the SDK's.

While it serves, fd 0 reads from the null device and fd 1 writes to stderr,
so stray prints and children cannot corrupt the protocol stream; both are
restored on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import stat
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

__all__ = ["DirectCalls", "stdio_streams"]

Write = Callable[[dict[str, Any]], Awaitable[None]]


class DirectCalls(Protocol):
    """Handles `tools/call` requests without the SDK, once the connection is ready for it."""

    def ready(self) -> bool:
        """Whether the connection finished a handshake-era initialize (else the SDK handles the call)."""

    async def call(self, request: dict[str, Any], write: Write) -> dict[str, Any]:
        """Run one tools/call request; returns the JSON-RPC response message to send."""


_LINE_LIMIT = 64 * 1024 * 1024


def _pipeable(fd: int) -> bool:
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


@asynccontextmanager
async def stdio_streams(direct: DirectCalls | None = None) -> AsyncIterator[tuple[Any, Any]]:
    """Yield (read stream, write stream) of `SessionMessage`s over stdin/stdout.

    Falls back to the SDK's threaded transport when stdin or stdout is not a
    pipe, socket or terminal (a regular file cannot be polled).
    """
    if not (_pipeable(0) and _pipeable(1)):
        from mcp.server.stdio import stdio_server

        async with stdio_server() as streams:
            yield streams
        return
    loop = asyncio.get_running_loop()
    protocol_in, protocol_out = os.dup(0), os.dup(1)
    saved_in, saved_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    in_file = os.fdopen(protocol_in, "rb", buffering=0)
    out_file = os.fdopen(protocol_out, "wb", buffering=0)
    read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), in_file)
    write_transport, write_protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, out_file)
    writer = asyncio.StreamWriter(write_transport, write_protocol, None, loop)
    to_server, from_stdin = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_stdout, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    in_flight: dict[Any, asyncio.Task[None]] = {}

    async def write(message: dict[str, Any]) -> None:
        writer.write(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
        await writer.drain()

    async def run_direct(request: dict[str, Any]) -> None:
        assert direct is not None
        try:
            response = await direct.call(request, write)
        finally:
            in_flight.pop(request["id"], None)
        await write(response)

    def take_directly(message: Any) -> bool:
        if direct is None or not isinstance(message, dict):
            return False
        method = message.get("method")
        if method == "tools/call" and "id" in message and direct.ready():
            in_flight[message["id"]] = asyncio.ensure_future(run_direct(message))
            return True
        if method == "notifications/cancelled":
            params = message.get("params")
            task = in_flight.get(params.get("requestId")) if isinstance(params, dict) else None
            if task is not None:
                task.cancel()  # a cancelled request gets no response
                return True
        return False

    async def pump_in() -> None:
        async with to_server:
            while line := await reader.readline():
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                    if take_directly(message):
                        continue
                    item: SessionMessage | Exception = SessionMessage(
                        jsonrpc_message_adapter.validate_python(message, by_name=False)
                    )
                except Exception as exc:  # the SDK answers a broken message with a JSON-RPC error
                    item = exc
                await to_server.send(item)

    async def pump_out() -> None:
        async with from_server:
            async for message in from_server:
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                writer.write(data.encode() + b"\n")
                await writer.drain()

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(pump_in)
            tasks.start_soon(pump_out)
            try:
                yield from_stdin, to_stdout
            finally:
                tasks.cancel_scope.cancel()
    finally:
        for task in in_flight.values():
            task.cancel()
        read_transport.close()
        with contextlib.suppress(Exception):
            await writer.drain()
        write_transport.close()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)
