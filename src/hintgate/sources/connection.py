"""An initialized MCP client connection: requests matched to answers, the server's own messages dispatched.

hintgate keeps what upstream servers send as raw JSON (dicts): the SDK's typed
models drop annotation keys the spec does not define and reject hints of the
wrong type, and a linter and a faithful proxy need to see both.

Every wait is bounded: requests carry a timeout, a channel that ends or sends
garbage fails the requests waiting on it at once with an error saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hintgate.config.model import HttpTransport, StdioTransport
from hintgate.deadlines import Deadlines
from hintgate.errors import (
    UpstreamClosed,
    UpstreamError,
    UpstreamNeedsLogin,
    UpstreamProtocolError,
    UpstreamRequestError,
    UpstreamStartError,
    UpstreamTimeout,
)
from hintgate.redaction import Redactor
from hintgate.sources.channels import HttpChannel, MessageChannel, open_http, open_stdio
from hintgate.sources.handshake import HANDSHAKE_VERSION, initialize_request
from hintgate.sources.notifications import DEFAULT_LIMIT, NotificationQueue

if TYPE_CHECKING:
    from hintgate.sources.oauth import GatewayAuth
    from hintgate.sources.processes import Prestarted

__all__ = [
    "HANDSHAKE_VERSION",
    "McpConnection",
    "NotificationHandler",
    "RequestHandler",
    "ServerInfo",
    "connect",
]

logger = logging.getLogger(__name__)

NotificationHandler = Callable[[str, dict[str, Any] | None], Awaitable[None]]
RequestHandler = Callable[[str, dict[str, Any] | None], Awaitable[dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class ServerInfo:
    """What an upstream said about itself in `initialize`."""

    name: str
    version: str
    protocol_version: str
    capabilities: Mapping[str, Any]
    instructions: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)


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
        redact: Redactor | None = None,
        notification_limit: int = DEFAULT_LIMIT,
        on_drop: Callable[[int], None] | None = None,
    ) -> None:
        self._channel = channel
        self.server = server
        self._redact = redact or Redactor()
        self._notifications = (
            NotificationQueue(on_notification, server=server, limit=notification_limit, on_drop=on_drop)
            if on_notification is not None
            else None
        )
        self._on_request = on_request
        self._ids = itertools.count(1)
        self._pending: dict[int | str, asyncio.Future[dict[str, Any]]] = {}
        self._deadlines: Deadlines[int | str] = Deadlines(self._pending.__contains__, self._time_out)
        """Pending requests' deadlines: one timer for them all, armed for the first."""
        self._closed: UpstreamError | None = None
        self._answered_ahead: dict[int | str, dict[str, Any]] = {}
        """Answers to requests written ahead of this connection, read before it sent them, by id."""
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
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": next(self._ids), "method": method}
        if params is not None:
            message["params"] = params
        return await self._exchange(message, timeout=timeout)

    async def _exchange(self, message: dict[str, Any], *, timeout: float) -> dict[str, Any]:
        """Send the request `message` and wait at most `timeout` s for its result."""
        method, request_id = message["method"], message["id"]
        loop = asyncio.get_running_loop()
        future: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._pending[request_id] = future
        deadline: asyncio.TimerHandle | None = None
        try:
            await self._channel.send(message)
            answered = self._answered_ahead.pop(request_id, None)
            if answered is not None:
                self._dispatch(answered)
            # The deadline fails the answer's own future: no waiter future around it, one wake-up fewer.
            deadline = self._deadlines.at(loop, loop.time() + timeout, request_id)
            return await future
        except TimeoutError:
            await self._cancel(request_id, f"no answer within {timeout:g} s")
            raise UpstreamTimeout(f"{method} got no answer within {timeout:g} s", server=self.server) from None
        except asyncio.CancelledError:
            await asyncio.shield(self._cancel(request_id, "the caller cancelled the request"))
            raise
        finally:
            if deadline is not None:
                deadline.cancel()
            self._pending.pop(request_id, None)

    def _time_out(self, request_id: int | str) -> None:
        """A request's deadline passed: its waiter gets `TimeoutError` (unless the answer came first)."""
        future = self._pending[request_id]
        if not future.done():
            future.set_exception(TimeoutError())

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

    @property
    def notifications_dropped(self) -> int:
        """How many of the server's notifications were dropped because too many waited."""
        return self._notifications.dropped if self._notifications is not None else 0

    async def run(self) -> None:
        """Read messages until the channel ends; then fail whatever still waits."""
        worker = asyncio.ensure_future(self._notifications.run()) if self._notifications is not None else None
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
            if worker is not None:
                worker.cancel()
            self._deadlines.clear()  # every request has failed: no deadline is left to keep
            if self._notifications is not None:
                self._notifications.report_dropped()  # a burst cut short by the end is still reported
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
            elif self._notifications is not None:
                self._notifications.put(message["method"], params)
            return
        future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
        if future is None and self._channel.written_ahead(message.get("id")):
            # The answer to a request written ahead (`processes.Prestarted`), before this connection sent it.
            self._answered_ahead[message["id"]] = message
            return
        if future is None or future.done():
            logger.debug("%s: response to an unknown request id %r", self.server, message.get("id"))
            return
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            future.set_exception(
                UpstreamRequestError(
                    self._redact.text(str(error.get("message", "error without a message"))),
                    code=int(error.get("code", -32603)) if isinstance(error.get("code"), int) else -32603,
                    data=self._redact.value(error.get("data")),
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
        """The initialize handshake; stores and returns what the server said.

        A process spawned ahead (`processes.Prestarted`) was given the request already, and perhaps what follows
        it: its channel does not write them again (`channels.StdioChannel`).
        """
        if self._closed is not None:
            raise self._closed
        request = initialize_request(capabilities or {}, next(self._ids))
        result = await self._exchange(request, timeout=timeout)
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
        if isinstance(self._channel, HttpChannel):
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
    redact: Redactor | None = None,
    on_drop: Callable[[int], None] | None = None,
    auth: GatewayAuth | None = None,
    prestarted: Prestarted | None = None,
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
        redact: hides the server's configured secrets in what it sends that
            hintgate shows (stderr lines, error messages, garbage quoted).
        on_drop: called with a count when notifications are dropped (too many waiting).
        auth: the OAuth auth of a remote server behind OAuth (`hintgate.sources.oauth.gateway_auth`).
        prestarted: processes spawned ahead of the gateway: a stdio server takes the one started from exactly
            its definition, if any, instead of spawning one.

    Raises:
        UpstreamStartError: the server could not be started, or did not
            complete the handshake (the reason and its stderr are in the message).
    """
    redact = redact or Redactor()
    opener: contextlib.AbstractAsyncContextManager[Any]
    if isinstance(spec, StdioTransport):
        first = initialize_request(capabilities or {})  # a process spawned ahead was given it already
        opener = open_stdio(spec, env if env is not None else {}, server, redact, prestarted, first)
    else:
        opener = open_http(spec, server, startup_timeout, redact, auth)
    async with opener as channel:
        connection = McpConnection(
            channel,
            server=server,
            on_notification=on_notification,
            on_request=on_request,
            redact=redact,
            on_drop=on_drop,
        )
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
                if isinstance(exc, UpstreamStartError | UpstreamNeedsLogin):
                    raise
                raise UpstreamStartError(f"failed during initialize: {exc.detail}", server=server) from exc
            yield connection
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
