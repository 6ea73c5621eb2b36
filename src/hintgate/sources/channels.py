"""How hintgate reaches an upstream MCP server: the message channels under `McpConnection`.

The stdio channel is hintgate's own (a child process with an allow-listed
environment, newline-delimited JSON); the streamable HTTP channel adapts the
SDK's client transport, converting its typed messages to dicts at the edge.
A channel that ends says why (exit code and last stderr lines, or the HTTP
failure), so the errors of the requests it fails can name the cause.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from hintgate import jsontext
from hintgate.config.model import HttpTransport, StdioTransport
from hintgate.errors import (
    HintgateError,
    UpstreamClosed,
    UpstreamNeedsLogin,
    UpstreamProtocolError,
    UpstreamStartError,
)
from hintgate.redaction import Redactor
from hintgate.sources import processes
from hintgate.tracecontext import trace_headers

if TYPE_CHECKING:
    import httpx2

    from hintgate.sources.oauth import GatewayAuth

__all__ = ["HttpChannel", "MessageChannel", "StdioChannel", "open_http", "open_stdio"]

logger = logging.getLogger(__name__)

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
"""Each message to a stdio server as one line of JSON (built once: `json.dumps` with options builds one a call)."""

_STDERR_LINES = 20

# The SDK's stand-in errors for a failed HTTP exchange (see HttpChannel._check_transport_error).
_INVALID_REQUEST = -32600
_CONNECTION_CLOSED = -32000
_SESSION_TERMINATED = "Session terminated"
_LOST_STREAMS_LIMIT = 3


class MessageChannel(Protocol):
    """A bidirectional stream of JSON-RPC messages as dicts."""

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message."""

    async def receive(self) -> dict[str, Any]:
        """The next message; raises `UpstreamClosed` at the end, `UpstreamProtocolError` on garbage."""

    def describe_exit(self) -> str:
        """Why the channel ended, for error messages (exit code, last stderr lines)."""

    def written_ahead(self, request_id: object) -> bool:
        """Whether the request `request_id` was written ahead of its connection, which has not sent it yet: its
        answer may come first (`processes.Prestarted`)."""


class StdioChannel:
    """A child process speaking newline-delimited JSON-RPC on its stdin and stdout.

    A process spawned ahead (`processes.Prestarted`) comes with what was written to it and read from it before
    it was taken (`processes.Ahead`): those lines are received first, and those messages, when the connection
    sends them in that order, are not written again.
    """

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        server: str,
        redact: Redactor,
        ahead: processes.Ahead | None = None,
    ) -> None:
        self._process = process
        self._server = server
        self._redact = redact
        self.sent_ahead: deque[dict[str, Any]] = deque(ahead.sent if ahead is not None else ())
        """What was written to the process ahead and the connection has not sent yet, in order."""
        self._read_ahead: deque[bytes | Exception] = deque(ahead.read if ahead is not None else ())
        self.stderr_tail: deque[str] = deque(maxlen=_STDERR_LINES)
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())

    async def _drain_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        with contextlib.suppress(Exception):
            while line := await stream.readline():
                # Children print their configuration (API keys included) when they fail.
                text = self._redact.text(line.decode("utf-8", "replace").rstrip())
                if text:
                    self.stderr_tail.append(text)
                    logger.debug("%s stderr: %s", self._server, text)

    async def send(self, message: dict[str, Any]) -> None:
        if self.sent_ahead:
            if message == self.sent_ahead[0]:
                self.sent_ahead.popleft()  # written to the process ahead already
                return
            self.sent_ahead.clear()  # the connection went another way: nothing more was said ahead for it
        stdin = self._process.stdin
        assert stdin is not None
        data = _ENCODER.encode(message).encode() + b"\n"
        try:
            stdin.write(data)
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise UpstreamClosed(f"its stdin is closed; {self.describe_exit()}", server=self._server) from exc

    async def receive(self) -> dict[str, Any]:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            try:
                line = await self._readline(stdout)
            except (ValueError, asyncio.LimitOverrunError) as exc:
                raise UpstreamProtocolError(
                    f"sent a line longer than {processes.LINE_LIMIT} bytes", server=self._server
                ) from exc
            if not line:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(2.0):
                        await self._process.wait()
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.5):
                        await asyncio.shield(self._stderr_task)
                raise UpstreamClosed(f"closed its stdout; {self.describe_exit()}", server=self._server)
            if not line.strip():
                continue
            return _decode(line, self._server, self._redact)

    def written_ahead(self, request_id: object) -> bool:
        return any("method" in message and message.get("id") == request_id for message in self.sent_ahead)

    async def _readline(self, stdout: asyncio.StreamReader) -> bytes:
        """The next line: one read ahead, in order (its error raised again), then the pipe's."""
        if self._read_ahead:
            item = self._read_ahead.popleft()
            if isinstance(item, Exception):
                raise item
            return item
        return await stdout.readline()

    def describe_exit(self) -> str:
        code = self._process.returncode
        state = "it is still running" if code is None else f"it exited with code {code}"
        if self.stderr_tail:
            return f"{state}; its last stderr lines: " + " | ".join(self.stderr_tail)
        return state

    async def aclose(self) -> None:
        await processes.stop(self._process)
        self._stderr_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._stderr_task


def _snippet(line: bytes, redact: Redactor) -> str:
    # Hidden before it is cut, so a secret across the cut cannot show its first half.
    return redact.text(line[:4096].decode("utf-8", "replace")).strip()[:200]


def _decode(line: bytes, server: str, redact: Redactor) -> dict[str, Any]:
    try:
        message = jsontext.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        snippet = _snippet(line, redact)
        raise UpstreamProtocolError(f"sent a line that is not JSON: {snippet!r}", server=server) from exc
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        snippet = _snippet(line, redact)
        raise UpstreamProtocolError(f"sent something that is not a JSON-RPC 2.0 message: {snippet!r}", server=server)
    return message


@asynccontextmanager
async def open_stdio(
    spec: StdioTransport,
    env: Mapping[str, str],
    server: str,
    redact: Redactor,
    prestarted: processes.Prestarted | None = None,
    first: dict[str, Any] | None = None,
) -> AsyncIterator[StdioChannel]:
    """A channel to `spec`'s process: the one spawned ahead from exactly this definition and given `first` (the
    connection's first request) as it started, if any (`sources.processes.prestarting`), else one spawned now."""
    command = spec.command
    ahead = await prestarted.take(spec, env, first) if prestarted is not None else None
    process = ahead.process if ahead is not None else None
    if process is None:
        if not processes.findable(spec, env):
            raise UpstreamStartError(f"command {command!r} was not found on PATH", server=server)
        try:
            process = await processes.spawn(spec, env)
        except OSError as exc:
            raise UpstreamStartError(f"could not start {command!r}: {exc.strerror or exc}", server=server) from exc
    channel = StdioChannel(process, server, redact, ahead)
    try:
        yield channel
    finally:
        # Cancelled or not, the child is gone before this returns (at most ~4 s):
        # a supervisor cancelled at shutdown must not leave it to a closed loop.
        closing = asyncio.ensure_future(channel.aclose())
        cancelled = False
        while not closing.done():
            try:
                await asyncio.shield(closing)
            except asyncio.CancelledError:
                cancelled = True
        if cancelled:
            raise asyncio.CancelledError


@dataclass(eq=False, repr=False)
class HttpChannel:
    """Adapts the SDK's streamable HTTP transport (typed messages) to dicts.

    Attributes:
        read: the SDK's stream of the server's messages.
        write: the SDK's stream of messages to the server.
        server: the server's name (errors name it).
        url: the server's URL as messages show it (secrets in its query hidden).
        redact: hides the config's secrets in the errors the SDK reports.
        refusal: says why the server needs an OAuth login, once a 401 could not be cured (None: no OAuth).
        protocol_version: the version the handshake agreed on, sent with every later request.
        session_lost: the server answered 404 to hintgate's session id (it restarted or dropped the session).
        unauthorized: why the server refused hintgate's requests with a 401, when it did (a server without
            `oauth`).
    """

    read: Any
    write: Any
    server: str
    url: str
    redact: Redactor
    refusal: Callable[[], str | None] | None = None
    protocol_version: str | None = field(default=None, init=False)
    session_lost: bool = field(default=False, init=False)
    unauthorized: str | None = field(default=None, init=False)
    _lost_streams: int = field(default=0, init=False)

    async def send(self, message: dict[str, Any]) -> None:
        from mcp.shared.message import ClientMessageMetadata, SessionMessage
        from mcp_types import jsonrpc_message_adapter

        try:
            typed = jsonrpc_message_adapter.validate_python(message)
        except ValueError as exc:
            raise UpstreamProtocolError(f"cannot send invalid JSON-RPC: {exc}", server=self.server) from exc
        headers = trace_headers()
        if self.protocol_version and message.get("method") != "initialize":
            headers["MCP-Protocol-Version"] = self.protocol_version
        metadata = ClientMessageMetadata(headers=headers) if headers else None
        try:
            await self.write.send(SessionMessage(typed, metadata=metadata))
        except Exception as exc:  # the SDK raises anyio's Closed/BrokenResourceError
            raise UpstreamClosed(f"connection to {self.url} closed", server=self.server) from exc

    async def receive(self) -> dict[str, Any]:
        try:
            item = await self.read.receive()
        except Exception as exc:  # anyio.EndOfStream / ClosedResourceError
            raise UpstreamClosed(f"connection to {self.url} closed", server=self.server) from exc
        if isinstance(item, Exception):
            raise UpstreamProtocolError(
                self.redact.text(f"{type(item).__name__}: {item}"), server=self.server
            ) from item
        dumped: dict[str, Any] = item.message.model_dump(by_alias=True, exclude_unset=True, mode="json")
        self._check_transport_error(dumped)
        return dumped

    def _check_transport_error(self, message: dict[str, Any]) -> None:
        """End the channel on the SDK's stand-in errors that say the connection itself is gone.

        The SDK answers a request with a made-up JSON-RPC error when the HTTP
        exchange failed rather than the server: a 404 for a session the server no
        longer knows (it restarted), or a response stream that ended without an
        answer (the server died mid-call). Returned as errors, they would fail
        every call while the upstream looked up; a lost session ends the
        connection at once, lost streams after `_LOST_STREAMS_LIMIT` in a row.
        """
        error = message.get("error")
        if not isinstance(error, dict):
            if "id" in message:
                self._lost_streams = 0
            return
        if self.unauthorized is not None:
            raise UpstreamStartError(self.unauthorized, server=self.server)
        refused = self.refusal() if self.refusal is not None else None
        if refused is not None:
            # The OAuth token stopped working and no refresh cured it: the SDK's stand-in
            # error for the 401 would fail every call while the server looked up.
            raise UpstreamNeedsLogin(refused, server=self.server)
        code, text = error.get("code"), str(error.get("message", ""))
        if self.session_lost or (code == _INVALID_REQUEST and text == _SESSION_TERMINATED):
            raise UpstreamClosed(
                f"{self.url} no longer knows hintgate's session (HTTP 404: {text}): the server restarted or dropped it",
                server=self.server,
            )
        if code == _CONNECTION_CLOSED:
            self._lost_streams += 1
            if self._lost_streams >= _LOST_STREAMS_LIMIT:
                raise UpstreamClosed(
                    f"{self._lost_streams} responses from {self.url} in a row were lost ({text})",
                    server=self.server,
                )

    def written_ahead(self, request_id: object) -> bool:
        return False  # nothing is written ahead over HTTP

    def describe_exit(self) -> str:
        return f"the HTTP connection to {self.url} ended"


@asynccontextmanager
async def open_http(
    spec: HttpTransport, server: str, timeout: float, redact: Redactor, auth: GatewayAuth | None = None
) -> AsyncIterator[HttpChannel]:
    if spec.kind == "sse":
        raise UpstreamStartError("the legacy SSE transport is not supported; use streamable HTTP", server=server)
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    url = redact.text(spec.url)  # as messages show it: API keys in its query hidden
    channel: HttpChannel | None = None

    async def watch_session(response: httpx2.Response) -> None:
        # A 404 to a request that carried the session id means the server no longer
        # knows the session; the SDK passes on only the body's JSON-RPC error.
        if response.status_code == 404 and "mcp-session-id" in response.request.headers and channel is not None:
            channel.session_lost = True
        if response.status_code == 401 and auth is None and channel is not None:
            channel.unauthorized = _unauthorized(spec, server, response)

    client = httpx2.AsyncClient(
        headers=dict(spec.headers),
        timeout=httpx2.Timeout(timeout, read=None),
        event_hooks={"response": [watch_session]},
        auth=auth.auth if auth is not None else None,
    )
    try:
        async with client, streamable_http_client(spec.url, http_client=client) as (read, write):
            channel = HttpChannel(read, write, server, url, redact, auth.refusal if auth is not None else None)
            yield channel
    except httpx2.HTTPError as exc:
        raise UpstreamStartError(f"HTTP connection to {url} failed: {redact.text(str(exc))}", server=server) from exc
    except BaseExceptionGroup as group:
        # The SDK's client runs in a task group, which wraps what failed (a refused
        # connection, or hintgate's own error raised inside) in a group: unwrap it.
        leaves = _leaves(group)
        if not all(isinstance(leaf, Exception) for leaf in leaves):
            raise  # a cancellation is not an error to translate
        ours = next((leaf for leaf in leaves if isinstance(leaf, HintgateError)), None)
        if ours is not None:
            raise ours from group
        failed = next((leaf for leaf in leaves if isinstance(leaf, httpx2.HTTPError)), leaves[0])
        detail = str(failed) if isinstance(failed, httpx2.HTTPError) else f"{type(failed).__name__}: {failed}"
        raise UpstreamStartError(f"HTTP connection to {url} failed: {redact.text(detail)}", server=server) from group


def _unauthorized(spec: HttpTransport, server: str, response: httpx2.Response) -> str:
    """What a 401 from a server without an `oauth` block means, and what to do."""
    challenge = response.headers.get("www-authenticate", "")
    if challenge.lower().startswith("bearer") and not any(k.lower() == "authorization" for k in spec.headers):
        return (
            "it answered HTTP 401 and asks for an OAuth login: add oauth: {} to its entry, "
            f"then log in (hintgate auth login {server}, or Connect in the dashboard)"
        )
    return "it answered HTTP 401 Unauthorized: check the credentials under its headers"


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    """The exceptions inside a group, nested groups flattened."""
    out: list[BaseException] = []
    for inner in group.exceptions:
        out.extend(_leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner])
    return out
