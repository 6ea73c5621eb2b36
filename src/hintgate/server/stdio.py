"""MCP over this process's stdin and stdout, on the event loop's own pipes.

The MCP SDK's `stdio_server()` reads and writes through a worker thread,
three thread hand-offs per forwarded call; measured here that was about a
third of what the gateway added to a call (bench/gateway_latency.py). This
transport reads and writes the same newline-delimited JSON-RPC on asyncio
pipe transports instead, and yields the streams the SDK's `Server.run()`
takes, so the protocol handling stays the SDK's.

One exception, the direct calls: a `tools/call` on a connection that finished
the 2025-11-25 handshake can go to a `DirectCalls` handler straight from the
parsed line, skipping the SDK's dispatcher and its model validation both ways
(measured: about half the CPU the gateway spent per call). Its cancellation
(`notifications/cancelled`) is honoured here too; everything else is the
SDK's, but for an opening (`server.front`) that answers the handshake and the
first listing before the SDK is imported and then hands the SDK what it read.

Input is checked before anything runs, and every broken request is answered
as the HTTP transport answers it rather than dropped: a line longer than
`LINE_LIMIT` is skipped (never held whole) and answered with -32600; a line
that is not JSON, or not UTF-8, with -32700; a request whose id is not a
string or an integer (MCP forbids null; arrays, objects, floats and booleans
are not ids either), a batch, or a message that is not a request object, with
-32600 and `id: null`, and it is not executed. The gateway keeps serving.

While it serves, fd 0 reads from the null device and fd 1 writes to stderr,
so stray prints and children cannot corrupt the protocol stream; both are
restored on exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import stat
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio

from hintgate import jsontext
from hintgate.results import WrittenResult
from hintgate.server.request_ids import id_refusal

__all__ = ["LINE_LIMIT", "DirectCalls", "Opening", "Replay", "encoded_line", "stdio_streams"]

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)

logger = logging.getLogger(__name__)

Write = Callable[[dict[str, Any]], Awaitable[None]]
Read = Callable[[], Awaitable[dict[str, Any] | None]]
"""The next message from the client that passed the transport's checks (None at the end of input)."""


class DirectCalls(Protocol):
    """Handles `tools/call` requests without the SDK, once the connection is ready for it."""

    def ready(self) -> bool:
        """Whether the connection finished a handshake-era initialize (else the SDK handles the call)."""

    async def call(self, request: dict[str, Any], write: Write) -> dict[str, Any]:
        """Run one tools/call request; returns the JSON-RPC response message to send."""


@dataclass(frozen=True, slots=True)
class Replay:
    """What the SDK is handed once an opening has answered the client's first requests itself.

    Attributes:
        messages: the messages read, in order, that the SDK gets before anything else read from stdin.
        dropped: the ids of requests among them whose answers were written already: the SDK's answers to them
            are not written again.
    """

    messages: list[dict[str, Any]] = field(default_factory=list)
    dropped: frozenset[Any] = frozenset()


class Opening(Protocol):
    """Answers a client's first requests before the SDK serves the connection (`hintgate.server.front`)."""

    async def answer(self, read: Read, write: Write) -> Replay:
        """Read and answer the first messages; what the SDK is then handed."""


LINE_LIMIT = 16 * 1024 * 1024
"""Bytes one JSON-RPC line on stdin may hold; a longer line is skipped and answered with an error."""

_PARSE_ERROR = -32700
_INVALID_REQUEST = -32600


def _refusal(message: Any) -> tuple[Any, str] | None:
    """(id to answer with, what is wrong) for a message that must not reach a handler; None when it may.

    Responses and notifications get no answer in JSON-RPC; a broken one is
    refused with id None and the caller only logs it.
    """
    if isinstance(message, list):
        return None, "Invalid Request: JSON-RPC batches are not supported by MCP; send one message per line"
    if not isinstance(message, dict):
        return None, f"Invalid Request: a JSON-RPC message is an object, not {type(message).__name__}"
    wrong_id = id_refusal(message)
    if wrong_id is not None:
        return None, wrong_id
    if "method" in message and "id" in message:
        if message.get("jsonrpc") != "2.0":
            return message["id"], 'Invalid Request: "jsonrpc" must be "2.0"'
        if not isinstance(message["method"], str):
            return message["id"], 'Invalid Request: "method" must be a string'
    return None


def _error(request_id: Any, code: int, text: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": text}}


def _is_request(message: Any) -> bool:
    return isinstance(message, dict) and "method" in message and "id" in message


async def _read_line(reader: asyncio.StreamReader) -> bytes | int:
    """The next line (b"" at EOF), or the length of a line over the reader's limit, skipped unread.

    An over-long line is dropped as it arrives, so at most twice the limit is
    ever buffered whatever the line's length.
    """
    try:
        return await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as exc:
        return exc.partial  # the last line had no newline, or EOF
    except asyncio.LimitOverrunError as exc:
        overrun = exc
    skipped = 0
    while True:
        skipped += len(await reader.readexactly(overrun.consumed))
        try:
            return skipped + len(await reader.readuntil(b"\n"))
        except asyncio.IncompleteReadError as exc:
            return skipped + len(exc.partial)
        except asyncio.LimitOverrunError as exc:
            overrun = exc


def _pipeable(fd: int) -> bool:
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


@asynccontextmanager
async def stdio_streams(
    direct: DirectCalls | None = None,
    *,
    line_limit: int = LINE_LIMIT,
    written: Callable[[], None] | None = None,
    opening: Opening | None = None,
    handed_over: Callable[[], None] | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """Yield (read stream, write stream) of `SessionMessage`s over stdin/stdout.

    Args:
        direct: takes handshake-era tools/call off the pipe directly (`server.direct`), if given.
        line_limit: the most bytes one line on stdin may hold.
        written: called after each message of the SDK's is written out (not on the SDK's own transport).
        opening: answers the client's first requests before anything of the SDK is imported
            (`server.front`); the SDK is then handed what it read (`Replay`) before the rest of stdin.
        handed_over: called once the SDK has answered every request the opening answered before it (its
            answers not written): from then on the SDK holds the client's session as if it had served it from
            the start. Called as soon as the SDK is handed what was read when the opening answered nothing.

    Falls back to the SDK's threaded transport when stdin or stdout is not a
    pipe, socket or terminal (a regular file cannot be polled); no opening answers there.
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
    reader = asyncio.StreamReader(limit=line_limit)
    in_file = os.fdopen(protocol_in, "rb", buffering=0)
    out_file = os.fdopen(protocol_out, "wb", buffering=0)
    read_transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), in_file)
    write_transport, write_protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, out_file)
    writer = asyncio.StreamWriter(write_transport, write_protocol, None, loop)
    in_flight: dict[Any, asyncio.Task[None]] = {}

    async def write(message: dict[str, Any]) -> None:
        writer.write(encoded_line(message))
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

    async def refuse(request_id: Any, code: int, text: str) -> None:
        logger.warning("stdio: %s", text)
        await write(_error(request_id, code, text))

    async def accepted(line: bytes | int) -> dict[str, Any] | None:
        """The message a line holds, once it passed the checks; None when it was answered (refused) or skipped."""
        if isinstance(line, int):
            await refuse(
                None,
                _INVALID_REQUEST,
                f"Invalid Request: a line of {line:,} bytes is over the stdio limit of "
                f"{line_limit:,} bytes; it was skipped unread",
            )
            return None
        if not line.strip():
            return None
        try:
            message = jsontext.loads(line)
        except ValueError as exc:  # invalid JSON, or bytes that are not UTF-8
            await refuse(None, _PARSE_ERROR, f"Parse error: {exc}")
            return None
        refusal = _refusal(message)
        if refusal is not None:
            request_id, text = refusal
            if request_id is not None or not isinstance(message, dict) or "method" in message:
                await refuse(request_id, _INVALID_REQUEST, text)
            else:  # a broken response: JSON-RPC answers no response
                logger.warning("stdio: message skipped: %s", text)
            return None
        return message  # type: ignore[no-any-return]

    async def read() -> dict[str, Any] | None:
        """The next message that passed the checks, for an opening; None at the end of input."""
        while line := await _read_line(reader):
            message = await accepted(line)
            if message is not None:
                return message
        return None

    async def close() -> None:
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

    try:
        replay = await opening.answer(read, write) if opening is not None else Replay()
    except BaseException:  # cancelled (SIGTERM) or failed before the SDK took over: the pipes as they were
        await close()
        raise
    # Only now the SDK's types: an opening answers the first requests before they are imported. Their validators
    # are built at first use (`defer_wire_validators`, before the types are first imported).
    from hintgate.server.sdk import defer_wire_validators

    defer_wire_validators()
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCError, JSONRPCResponse, jsonrpc_message_adapter
    from pydantic import ValidationError

    to_server, from_stdin = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    to_stdout, from_server = anyio.create_memory_object_stream[SessionMessage](0)
    dropped = set(replay.dropped)
    if not dropped and handed_over is not None:
        handed_over()

    async def take(message: Any) -> SessionMessage | None:
        """The message for the SDK; None when it was answered or taken here."""
        if take_directly(message):
            return None
        try:
            return SessionMessage(jsonrpc_message_adapter.validate_python(message, by_name=False))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"][1:]) or "the message"
            text = f"Invalid Request: not a JSON-RPC request, notification or response ({where}: {first['msg']})"
            if _is_request(message):
                await refuse(message["id"], _INVALID_REQUEST, text)
            elif not ({"method", "result", "error"} & message.keys()):  # not even recognizable
                await refuse(None, _INVALID_REQUEST, text)
            else:  # a broken notification or response: JSON-RPC answers neither
                logger.warning("stdio: message skipped: %s", text)
            return None

    async def pump_in() -> None:
        async with to_server:
            for held in replay.messages:
                item = await take(held)
                if item is not None:
                    await to_server.send(item)
            while (message := await read()) is not None:
                item = await take(message)
                if item is not None:
                    await to_server.send(item)

    async def pump_out() -> None:
        async with from_server:
            async for message in from_server:
                answer = message.message
                if dropped and isinstance(answer, JSONRPCResponse | JSONRPCError) and answer.id in dropped:
                    dropped.discard(answer.id)  # the opening wrote its answer already
                    if isinstance(answer, JSONRPCError):
                        logger.warning("stdio: the SDK refused a request answered before it: %s", answer.error)
                    if not dropped and handed_over is not None:
                        handed_over()
                    continue
                data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                writer.write(data.encode() + b"\n")
                await writer.drain()
                if written is not None:
                    written()

    try:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(pump_in)
            tasks.start_soon(pump_out)
            try:
                yield from_stdin, to_stdout
            finally:
                tasks.cancel_scope.cancel()
    finally:
        await close()


def encoded_line(message: dict[str, Any]) -> bytes:
    """`message` as one line: a response whose result the result scan wrote already (`WrittenResult`) around that
    text, the rest encoded here."""
    result = message.get("result")
    if type(result) is WrittenResult and message.keys() == _RESPONSE_KEYS:
        text = f'{{"jsonrpc":"2.0","id":{_ENCODER.encode(message["id"])},"result":{result.json}}}'
    else:
        text = _ENCODER.encode(message)
    return text.encode() + b"\n"


_RESPONSE_KEYS = {"jsonrpc", "id", "result"}
