"""Upstream MCP servers: a lean JSON-RPC client over stdio or streamable HTTP.

hintgate keeps what upstream servers send as raw JSON (dicts): the SDK's typed
models drop annotation keys the spec does not define and reject hints of the
wrong type, and a linter and a faithful proxy need to see both. The stdio
transport is hintgate's own (a child process with an allow-listed environment,
newline-delimited JSON); streamable HTTP reuses the SDK's client transport and
converts at its edge.

Every wait is bounded: requests carry a timeout, a child that exits or writes
garbage fails the requests waiting on it at once with an error saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import shutil
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from hintgate import __version__
from hintgate.config.model import HttpTransport, ServerConfig, StdioTransport
from hintgate.errors import (
    HintgateError,
    UpstreamClosed,
    UpstreamError,
    UpstreamProtocolError,
    UpstreamRequestError,
    UpstreamStartError,
    UpstreamTimeout,
)
from hintgate.sources.base import Backoff, CallContext, ChangeListener, ConfiguredSource, SourceState, SourceStatus

__all__ = [
    "HANDSHAKE_VERSION",
    "McpConnection",
    "McpUpstream",
    "NotificationHandler",
    "RequestHandler",
    "ServerInfo",
    "connect",
]

logger = logging.getLogger(__name__)

HANDSHAKE_VERSION = "2025-11-25"
"""The protocol revision hintgate asks upstreams for (the newest reachable by the initialize handshake)."""

_LINE_LIMIT = 64 * 1024 * 1024  # one JSON-RPC message per line; screenshots make lines large
_STDERR_LINES = 20

NotificationHandler = Callable[[str, dict[str, Any] | None], Awaitable[None]]
RequestHandler = Callable[[str, dict[str, Any] | None], Awaitable[dict[str, Any]]]


class MessageChannel(Protocol):
    """A bidirectional stream of JSON-RPC messages as dicts."""

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message."""

    async def receive(self) -> dict[str, Any]:
        """The next message; raises `UpstreamClosed` at the end, `UpstreamProtocolError` on garbage."""

    def describe_exit(self) -> str:
        """Why the channel ended, for error messages (exit code, last stderr lines)."""


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What an upstream said about itself in `initialize`."""

    name: str
    version: str
    protocol_version: str
    capabilities: Mapping[str, Any]
    instructions: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


class _StdioChannel:
    def __init__(self, process: asyncio.subprocess.Process, server: str) -> None:
        self._process = process
        self._server = server
        self.stderr_tail: deque[str] = deque(maxlen=_STDERR_LINES)
        self._stderr_task = asyncio.ensure_future(self._drain_stderr())

    async def _drain_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        with contextlib.suppress(Exception):
            while line := await stream.readline():
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    self.stderr_tail.append(text)
                    logger.debug("%s stderr: %s", self._server, text)

    async def send(self, message: dict[str, Any]) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"
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
                line = await stdout.readline()
            except (ValueError, asyncio.LimitOverrunError) as exc:
                raise UpstreamProtocolError(
                    f"sent a line longer than {_LINE_LIMIT} bytes", server=self._server
                ) from exc
            if not line:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._process.wait(), 2.0)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self._stderr_task), 0.5)
                raise UpstreamClosed(f"closed its stdout; {self.describe_exit()}", server=self._server)
            if not line.strip():
                continue
            return _decode(line, self._server)

    def describe_exit(self) -> str:
        code = self._process.returncode
        state = "it is still running" if code is None else f"it exited with code {code}"
        if self.stderr_tail:
            return f"{state}; its last stderr lines: " + " | ".join(self.stderr_tail)
        return state

    async def aclose(self) -> None:
        process = self._process
        if process.stdin is not None and not process.stdin.is_closing():
            process.stdin.close()
        # The spec's shutdown: close stdin, wait, then SIGTERM, then SIGKILL.
        for step in (None, process.terminate, process.kill):
            if process.returncode is not None:
                break
            if step is not None:
                with contextlib.suppress(ProcessLookupError):
                    step()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), 2.0)
        self._stderr_task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._stderr_task


def _decode(line: bytes, server: str) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        snippet = line[:200].decode("utf-8", "replace").strip()
        raise UpstreamProtocolError(f"sent a line that is not JSON: {snippet!r}", server=server) from exc
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        snippet = line[:200].decode("utf-8", "replace").strip()
        raise UpstreamProtocolError(f"sent something that is not a JSON-RPC 2.0 message: {snippet!r}", server=server)
    return message


@asynccontextmanager
async def _open_stdio(spec: StdioTransport, env: Mapping[str, str], server: str) -> AsyncIterator[_StdioChannel]:
    command = spec.command
    if os.sep not in command and shutil.which(command, path=env.get("PATH")) is None:
        raise UpstreamStartError(f"command {command!r} was not found on PATH", server=server)
    try:
        process = await asyncio.create_subprocess_exec(
            command,
            *spec.args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=dict(env),
            cwd=spec.cwd,
            limit=_LINE_LIMIT,
            start_new_session=True,  # a Ctrl-C to the gateway must not reach the child first
        )
    except OSError as exc:
        raise UpstreamStartError(f"could not start {command!r}: {exc.strerror or exc}", server=server) from exc
    channel = _StdioChannel(process, server)
    try:
        yield channel
    finally:
        await asyncio.shield(channel.aclose())


class _HttpChannel:
    """Adapts the SDK's streamable HTTP transport (typed messages) to dicts."""

    def __init__(self, read: Any, write: Any, server: str, url: str) -> None:
        self._read = read
        self._write = write
        self._server = server
        self._url = url
        self.protocol_version: str | None = None

    async def send(self, message: dict[str, Any]) -> None:
        from mcp.shared.message import ClientMessageMetadata, SessionMessage
        from mcp_types import jsonrpc_message_adapter

        try:
            typed = jsonrpc_message_adapter.validate_python(message)
        except ValueError as exc:
            raise UpstreamProtocolError(f"cannot send invalid JSON-RPC: {exc}", server=self._server) from exc
        metadata = None
        if self.protocol_version and message.get("method") != "initialize":
            metadata = ClientMessageMetadata(headers={"MCP-Protocol-Version": self.protocol_version})
        try:
            await self._write.send(SessionMessage(typed, metadata=metadata))
        except Exception as exc:  # the SDK raises anyio's Closed/BrokenResourceError
            raise UpstreamClosed(f"connection to {self._url} closed", server=self._server) from exc

    async def receive(self) -> dict[str, Any]:
        try:
            item = await self._read.receive()
        except Exception as exc:  # anyio.EndOfStream / ClosedResourceError
            raise UpstreamClosed(f"connection to {self._url} closed", server=self._server) from exc
        if isinstance(item, Exception):
            raise UpstreamProtocolError(f"{type(item).__name__}: {item}", server=self._server) from item
        dumped: dict[str, Any] = item.message.model_dump(by_alias=True, exclude_unset=True, mode="json")
        return dumped

    def describe_exit(self) -> str:
        return f"the HTTP connection to {self._url} ended"


@asynccontextmanager
async def _open_http(spec: HttpTransport, server: str, timeout: float) -> AsyncIterator[_HttpChannel]:
    if spec.kind == "sse":
        raise UpstreamStartError("the legacy SSE transport is not supported; use streamable HTTP", server=server)
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    client = httpx2.AsyncClient(headers=dict(spec.headers), timeout=httpx2.Timeout(timeout, read=None))
    try:
        async with client, streamable_http_client(spec.url, http_client=client) as (read, write):
            yield _HttpChannel(read, write, server, spec.url)
    except httpx2.HTTPError as exc:
        raise UpstreamStartError(f"HTTP connection to {spec.url} failed: {exc}", server=server) from exc
    except BaseExceptionGroup as group:
        # The SDK's client runs in a task group, which wraps what failed (a refused
        # connection, or hintgate's own error raised inside) in a group: unwrap it.
        leaves = _leaves(group)
        if not all(isinstance(leaf, Exception) for leaf in leaves):
            raise  # a cancellation is not an error to translate
        ours = next((leaf for leaf in leaves if isinstance(leaf, HintgateError)), None)
        if ours is not None:
            raise ours from group
        failed = next((leaf for leaf in leaves if isinstance(leaf, httpx2.HTTPError)), None)
        if failed is None:
            raise
        raise UpstreamStartError(f"HTTP connection to {spec.url} failed: {failed}", server=server) from group


def _leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    """The exceptions inside a group, nested groups flattened."""
    out: list[BaseException] = []
    for inner in group.exceptions:
        out.extend(_leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner])
    return out


class McpConnection:
    """One initialized MCP client connection to an upstream server.

    Requests are matched to responses by id; notifications and the server's own
    requests (ping, elicitation, sampling, roots) go to the handlers given.
    """

    def __init__(
        self,
        channel: MessageChannel,
        *,
        server: str,
        on_notification: NotificationHandler | None = None,
        on_request: RequestHandler | None = None,
    ) -> None:
        self._channel = channel
        self.server = server
        self._on_notification = on_notification
        self._on_request = on_request
        self._ids = itertools.count(1)
        self._pending: dict[int | str, asyncio.Future[dict[str, Any]]] = {}
        self._closed: UpstreamError | None = None
        self.info: ServerInfo | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ended = asyncio.Event()

    @property
    def closed(self) -> UpstreamError | None:
        """Why the connection ended, or `None` while it is open."""
        return self._closed

    async def wait_closed(self) -> UpstreamError:
        """Wait until the connection ends; returns why."""
        await self._ended.wait()
        assert self._closed is not None
        return self._closed

    async def request(self, method: str, params: dict[str, Any] | None = None, *, timeout: float) -> dict[str, Any]:
        """Send a request and wait at most `timeout` seconds for its result.

        Raises:
            UpstreamRequestError: the server answered with a JSON-RPC error.
            UpstreamTimeout: no answer in time (a cancellation is sent).
            UpstreamClosed, UpstreamProtocolError: the connection broke.
        """
        if self._closed is not None:
            raise self._closed
        request_id = next(self._ids)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await self._channel.send(message)
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            await self._cancel(request_id, f"no answer within {timeout:g} s")
            raise UpstreamTimeout(f"{method} got no answer within {timeout:g} s", server=self.server) from None
        except asyncio.CancelledError:
            await asyncio.shield(self._cancel(request_id, "the caller cancelled the request"))
            raise
        finally:
            self._pending.pop(request_id, None)

    async def _cancel(self, request_id: int, reason: str) -> None:
        if self._closed is None:
            with contextlib.suppress(UpstreamError):
                await self.notify("notifications/cancelled", {"requestId": request_id, "reason": reason})

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        """Send a notification."""
        if self._closed is not None:
            raise self._closed
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._channel.send(message)

    async def run(self) -> None:
        """Read messages until the channel ends; then fail whatever still waits."""
        try:
            while True:
                try:
                    message = await self._channel.receive()
                except UpstreamProtocolError as exc:
                    # The garbage may have been the answer to any pending request:
                    # fail them now rather than let them wait out their timeouts.
                    logger.warning("%s", exc)
                    self._fail_pending(exc)
                    continue
                self._dispatch(message)
        except UpstreamError as exc:
            self._closed = exc
            self._fail_pending(exc)
        except BaseException:
            self._closed = UpstreamClosed("the connection was shut down", server=self.server)
            self._fail_pending(self._closed)
            raise
        finally:
            self._ended.set()

    def _fail_pending(self, exc: UpstreamError) -> None:
        for future in self._pending.values():
            if not future.done():
                future.set_exception(exc)

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "method" in message:
            params = message.get("params")
            params = params if isinstance(params, dict) else None
            if "id" in message:
                self._spawn(self._answer(message["id"], message["method"], params))
            elif self._on_notification is not None:
                self._spawn(self._on_notification(message["method"], params))
            return
        future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
        if future is None or future.done():
            logger.debug("%s: response to an unknown request id %r", self.server, message.get("id"))
            return
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            future.set_exception(
                UpstreamRequestError(
                    str(error.get("message", "error without a message")),
                    code=int(error.get("code", -32603)) if isinstance(error.get("code"), int) else -32603,
                    data=error.get("data"),
                    server=self.server,
                )
            )
        elif isinstance(message.get("result"), dict):
            future.set_result(message["result"])
        else:
            future.set_exception(
                UpstreamProtocolError(
                    f"answered request {message.get('id')!r} without a result object", server=self.server
                )
            )

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, request_id: Any, method: str, params: dict[str, Any] | None) -> None:
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        try:
            if method == "ping":
                reply["result"] = {}
            elif self._on_request is None:
                reply["error"] = {"code": -32601, "message": f"hintgate does not handle {method}"}
            else:
                reply["result"] = await self._on_request(method, params)
        except UpstreamRequestError as exc:
            reply["error"] = {"code": exc.code, "message": str(exc), "data": exc.data}
        except Exception as exc:
            logger.exception("%s: handling %s failed", self.server, method)
            reply["error"] = {"code": -32603, "message": f"hintgate could not handle {method}: {exc}"}
        with contextlib.suppress(UpstreamError):
            await self._channel.send(reply)

    async def initialize(self, *, capabilities: dict[str, Any] | None = None, timeout: float) -> ServerInfo:
        """The initialize handshake; stores and returns what the server said."""
        result = await self.request(
            "initialize",
            {
                "protocolVersion": HANDSHAKE_VERSION,
                "capabilities": capabilities or {},
                "clientInfo": {"name": "hintgate", "version": __version__},
            },
            timeout=timeout,
        )
        server_info = result.get("serverInfo") if isinstance(result.get("serverInfo"), dict) else {}
        assert isinstance(server_info, dict)
        version = result.get("protocolVersion")
        if not isinstance(version, str):
            raise UpstreamProtocolError("initialize result has no protocolVersion", server=self.server)
        caps = result.get("capabilities")
        self.info = ServerInfo(
            name=str(server_info.get("name", self.server)),
            version=str(server_info.get("version", "")),
            protocol_version=version,
            capabilities=caps if isinstance(caps, dict) else {},
            instructions=result.get("instructions") if isinstance(result.get("instructions"), str) else None,
            raw=result,
        )
        if isinstance(self._channel, _HttpChannel):
            self._channel.protocol_version = version
        await self.notify("notifications/initialized")
        return self.info

    async def list_all(self, method: str, key: str, *, timeout: float, max_pages: int = 1000) -> list[dict[str, Any]]:
        """Every item of a paginated list (`tools/list` → `tools`), following `nextCursor`."""
        items: list[dict[str, Any]] = []
        cursor: str | None = None
        seen: set[str] = set()
        for _ in range(max_pages):
            result = await self.request(method, {"cursor": cursor} if cursor else None, timeout=timeout)
            page = result.get(key)
            if not isinstance(page, list):
                raise UpstreamProtocolError(f"{method} result has no {key!r} list", server=self.server)
            items.extend(item for item in page if isinstance(item, dict))
            cursor = result.get("nextCursor")
            if not cursor:
                return items
            if not isinstance(cursor, str) or cursor in seen:
                raise UpstreamProtocolError(f"{method} returned a repeated or invalid cursor", server=self.server)
            seen.add(cursor)
        raise UpstreamProtocolError(f"{method} did not end after {max_pages} pages", server=self.server)


@asynccontextmanager
async def connect(
    spec: StdioTransport | HttpTransport,
    *,
    server: str,
    env: Mapping[str, str] | None = None,
    startup_timeout: float = 30.0,
    capabilities: dict[str, Any] | None = None,
    on_notification: NotificationHandler | None = None,
    on_request: RequestHandler | None = None,
) -> AsyncIterator[McpConnection]:
    """Start or reach an upstream, run the handshake, and yield the connection.

    Args:
        spec: how to reach the server.
        server: its name, used in every error message.
        env: the complete environment of a stdio child (already allow-listed).
        startup_timeout: seconds allowed for start plus `initialize`.
        capabilities: the client capabilities to declare upstream.
        on_notification: called for each notification the server sends.
        on_request: called for each request the server sends (except ping).

    Raises:
        UpstreamStartError: the server could not be started, or did not
            complete the handshake (the reason and its stderr are in the message).
    """
    opener: contextlib.AbstractAsyncContextManager[Any]
    if isinstance(spec, StdioTransport):
        opener = _open_stdio(spec, env if env is not None else {}, server)
    else:
        opener = _open_http(spec, server, startup_timeout)
    async with opener as channel:
        connection = McpConnection(channel, server=server, on_notification=on_notification, on_request=on_request)
        reader = asyncio.ensure_future(connection.run())
        try:
            try:
                await connection.initialize(capabilities=capabilities, timeout=startup_timeout)
            except UpstreamTimeout as exc:
                raise UpstreamStartError(
                    f"did not answer initialize within {startup_timeout:g} s; {channel.describe_exit()}",
                    server=server,
                ) from exc
            except UpstreamError as exc:
                if isinstance(exc, UpstreamStartError):
                    raise
                raise UpstreamStartError(f"failed during initialize: {exc.detail}", server=server) from exc
            yield connection
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader


_RESERVED_META = "io.modelcontextprotocol/"


def _hop_meta(meta: Mapping[str, Any] | None) -> dict[str, Any]:
    """A request's `_meta` minus the protocol's own keys, which belong to one hop.

    A 2026-07-28 client puts its protocol version, info and capabilities there;
    passed on, they would tell a handshake-era upstream the request is of an
    era its connection does not speak.
    """
    if not meta:
        return {}
    return {k: v for k, v in meta.items() if not k.startswith(_RESERVED_META)}


_CLIENT_CAPABILITIES: dict[str, Any] = {
    # hintgate relays these requests to the client whose call caused them.
    "elicitation": {"form": {}, "url": {}},
    "sampling": {},
    "roots": {"listChanged": True},
}


class McpUpstream(ConfiguredSource):
    """One upstream MCP server, kept running: started, listed, watched and restarted.

    `run()` is the supervisor: it connects, lists tools, prompts and resources,
    and when the connection ends marks the server down with the reason and
    restarts it with exponential backoff (1 s doubling to 30 s). Listeners hear
    of every change so the gateway can rebuild its catalog and tell its clients.
    """

    def __init__(
        self,
        config: ServerConfig,
        *,
        env: Mapping[str, str],
        list_timeout: float = 30.0,
        listener: ChangeListener | None = None,
    ) -> None:
        super().__init__(config, listener=listener)
        self.config: ServerConfig = config
        self._env = env
        self._list_timeout = list_timeout
        self._connection: McpConnection | None = None
        self._progress_tokens = itertools.count(1)
        self._progress: dict[str, CallContext] = {}
        self._calls: dict[int, CallContext] = {}
        self._call_ids = itertools.count(1)
        self._refreshing: set[str] = set()

    @property
    def info(self) -> ServerInfo | None:
        """What it said about itself in its last handshake."""
        return self._connection.info if self._connection else None

    async def run(self) -> None:
        """Supervise the server until cancelled."""
        if not self.config.enabled:
            self._first_attempt.set()
            return
        backoff = Backoff()
        while True:
            started = asyncio.get_running_loop().time()
            reason = await self._run_once()
            self.tools, self.prompts, self.resources, self.resource_templates = [], [], [], []
            delay = backoff.next_delay(up_for=asyncio.get_running_loop().time() - started)
            await self.wait_to_retry(reason, delay, restarts=self._status.restarts)
            await self._set_status(SourceStatus(SourceState.RESTARTING, reason, restarts=self._status.restarts + 1))

    async def _run_once(self) -> str:
        """Connect, serve until the connection ends; returns why it ended."""
        try:
            async with connect(
                self.config.transport,
                server=self.name,
                env=self._env,
                startup_timeout=self.config.startup_timeout,
                capabilities=_CLIENT_CAPABILITIES,
                on_notification=self._on_notification,
                on_request=self._on_request,
            ) as connection:
                self._connection = connection
                await self._refresh_all(connection)
                self._first_attempt.set()
                await self._set_status(SourceStatus(SourceState.UP, restarts=self._status.restarts))
                closed = await connection.wait_closed()
                return closed.detail
        except UpstreamError as exc:
            return exc.detail
        except OSError as exc:  # a broken pipe or similar the transport did not translate
            return f"{type(exc).__name__}: {exc}"
        finally:
            self._connection = None

    async def _refresh_all(self, connection: McpConnection) -> None:
        caps = connection.info.capabilities if connection.info else {}
        self.tools = await self._list(connection, "tools/list", "tools") if "tools" in caps else []
        self.prompts = await self._list(connection, "prompts/list", "prompts") if "prompts" in caps else []
        if "resources" in caps:
            self.resources = await self._list(connection, "resources/list", "resources")
            self.resource_templates = await self._list(
                connection, "resources/templates/list", "resourceTemplates", optional=True
            )

    async def _list(
        self, connection: McpConnection, method: str, key: str, *, optional: bool = False
    ) -> list[dict[str, Any]]:
        try:
            return await connection.list_all(method, key, timeout=self._list_timeout)
        except UpstreamRequestError as exc:
            if optional and exc.code == -32601:
                return []
            raise

    async def _on_notification(self, method: str, params: dict[str, Any] | None) -> None:
        if method == "notifications/progress" and params:
            context = self._progress.get(str(params.get("progressToken")))
            if context is not None:
                await context.progress(params.get("progress", 0), params.get("total"), params.get("message"))
            return
        kind = {
            "notifications/tools/list_changed": "tools",
            "notifications/prompts/list_changed": "prompts",
            "notifications/resources/list_changed": "resources",
        }.get(method)
        if kind is not None:
            await self._refresh(kind)
        elif method == "notifications/resources/updated":
            await self._notify("resource-updated:" + str((params or {}).get("uri", "")))
        elif method == "notifications/message":
            # A log line of the server's, most likely about the call in flight:
            # it goes to that call's client, as the upstream meant it for its client.
            if self._calls:
                await self._calls[max(self._calls)].client_notify(method, params)
            else:
                logger.info("%s: %s", self.name, (params or {}).get("data"))

    async def _refresh(self, kind: str) -> None:
        connection = self._connection
        if connection is None or kind in self._refreshing:
            return
        self._refreshing.add(kind)
        try:
            if kind == "tools":
                self.tools = await self._list(connection, "tools/list", "tools")
            elif kind == "prompts":
                self.prompts = await self._list(connection, "prompts/list", "prompts")
            else:
                self.resources = await self._list(connection, "resources/list", "resources")
        except UpstreamError as exc:
            logger.warning("%s: refreshing %s failed: %s", self.name, kind, exc.detail)
            return
        finally:
            self._refreshing.discard(kind)
        await self._notify(kind)

    async def _on_request(self, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
        # The upstream cannot say which call a request belongs to (stdio has no
        # such field), so it goes to the client of the newest call in flight.
        if not self._calls:
            raise UpstreamRequestError(f"{method} arrived while no client call was in progress", code=-32603)
        context = self._calls[max(self._calls)]
        return await context.client_request(method, params)

    def _require(self) -> McpConnection:
        connection = self._connection
        if connection is None or self._status.state is not SourceState.UP:
            raise self.unavailable()
        return connection

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        meta: Mapping[str, Any] | None,
        context: CallContext,
    ) -> dict[str, Any]:
        """Forward a tools/call; returns the upstream's result JSON untouched.

        Raises:
            UpstreamDown: the server is not up.
            UpstreamError: the call failed (timeout, crash, JSON-RPC error).
        """
        connection = self._require()
        params: dict[str, Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        token: str | None = None
        forwarded = _hop_meta(meta)
        if forwarded:
            if "progressToken" in forwarded:
                # Tokens are the client's; several clients share this upstream, so
                # the gateway mints its own and maps progress back.
                token = f"hintgate-{next(self._progress_tokens)}"
                forwarded["progressToken"] = token
                self._progress[token] = context
            params["_meta"] = forwarded
        call_id = next(self._call_ids)
        self._calls[call_id] = context
        try:
            return await connection.request("tools/call", params, timeout=self.config.call_timeout)
        finally:
            del self._calls[call_id]
            if token is not None:
                del self._progress[token]

    async def request(self, method: str, params: dict[str, Any] | None, *, context: CallContext) -> dict[str, Any]:
        """Forward any other request (prompts/get, resources/read, completion/complete...)."""
        connection = self._require()
        if params and "_meta" in params:
            meta = _hop_meta(params["_meta"])
            params = {k: v for k, v in params.items() if k != "_meta"}
            if meta:
                params["_meta"] = meta
        call_id = next(self._call_ids)
        self._calls[call_id] = context
        try:
            return await connection.request(method, params, timeout=self.config.call_timeout)
        finally:
            del self._calls[call_id]
