"""Streamable HTTP's fast path: a POST that needs no stream is answered with one JSON body.

The MCP SDK serves every POST to `/mcp` through its session manager: a
handshake-era request is parsed, validated into a model, handed through
memory streams to the session's dispatcher (which spawns a task for it), and
its answer comes back through a message router onto a Server-Sent Events
response. Most requests need none of that: a `tools/call` the policy allows,
a listing, a ping are one request and one response. This path answers such a
request in the ASGI task itself, with the SDK's own request kernel
(`ServerRunner`, so the server's middleware, handlers and result shaping are
the SDK's) and a single `application/json` response, which the client accepted
(it must accept both JSON and event streams).

Everything else goes the SDK's way, unchanged, with the request body replayed:
`initialize`, notifications, responses, batches, GET and DELETE, unknown or
closed sessions, bad headers or bodies (the SDK gives its own errors), a
request with a progress token, a `tools/call` the policy may ask about, and
2026-07-28 requests carrying an answer to a question (`inputResponses`,
`requestState`). A message for the client while the answer is being made (an
upstream's log message, or its sampling or elicitation request, relayed
through the session's own dispatcher so the client's reply finds its way back)
switches the answer to an event stream, as the SDK's would be.
`HINTGATE_HTTP_FAST=0` turns the path off.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio
import pydantic_core
from mcp.server.runner import ServerRunner, modern_error_data, serve_one
from mcp.server.streamable_http import REQUEST_CANCELLED, check_accept_headers
from mcp.server.transport_security import TransportSecurityMiddleware
from mcp.shared.inbound import (
    ERROR_CODE_HTTP_STATUS,
    InboundLadderRejection,
    classify_inbound_request,
    find_duplicated_routing_header,
    validate_mcp_param_headers,
)
from mcp.shared.jsonrpc_dispatcher import handler_exception_to_error_data, progress_token_from_params
from mcp.shared.message import ServerMessageMetadata
from mcp.shared.transport_context import TransportContext
from mcp_types import ErrorData, JSONRPCError, JSONRPCNotification, JSONRPCResponse
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from starlette.requests import Request

from hintgate import jsontext
from hintgate.pipeline import Decided
from hintgate.results import WrittenResult
from hintgate.server import sdk
from hintgate.server.http_request import HttpRequest
from hintgate.server.request_ids import replay

if TYPE_CHECKING:
    from starlette.types import Receive, Scope, Send

    from hintgate.server.gateway import Gateway

__all__ = ["ENV_SWITCH", "HttpFastPath", "enabled"]

logger = logging.getLogger(__name__)

ENV_SWITCH = "HINTGATE_HTTP_FAST"
"""Set to 0 (or false, off, no) to send every request the SDK's way."""

_FAST_METHODS = frozenset(
    {
        "tools/call",
        "tools/list",
        "ping",
        "prompts/list",
        "prompts/get",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "completion/complete",
    }
)
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_PASSED_KEPT = 256  # header combinations remembered as passing the SDK's checks
_SSE_HEADERS = [(b"cache-control", b"no-cache, no-transform"), (b"connection", b"keep-alive")]
_MODERN_SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"connection", b"keep-alive"),
    (b"x-accel-buffering", b"no"),
]


def enabled(environ: Mapping[str, str]) -> bool:
    """Whether the fast path is on (it is unless `HINTGATE_HTTP_FAST` says 0, false, off or no)."""
    return environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "false", "off", "no")


class _NeedsStream(Exception):
    """Raised inside the SDK's middleware chain, before anything ran: this request goes the SDK's way."""


class _FastRequest(HttpRequest):
    """The HTTP request of a call on the fast path (the SDK's handlers see it as `ctx.request`)."""


class _Fallback(Exception):
    """This request goes the SDK's way (the reason is counted).

    Attributes:
        reason: why, in a few words.
        body: what was read of the request body (None: nothing was read).
        more: whether the client has more of the body to send.
    """

    def __init__(self, reason: str, body: bytes | None = None, *, more: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.body = body
        self.more = more


class _Reply:
    """One response: a JSON body, unless a message for the client went out first (then an event stream)."""

    def __init__(self, send: Send, sse_headers: list[tuple[bytes, bytes]]) -> None:
        self._send = send
        self._sse_headers = sse_headers
        self._lock: asyncio.Lock | None = None  # made by the first event: most answers have none
        self.streaming = False

    async def event(self, data: str) -> None:
        frame = f"event: message\r\ndata: {data}\r\n\r\n".encode()
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if not self.streaming:
                self.streaming = True
                await self._send({"type": "http.response.start", "status": 200, "headers": self._sse_headers})
            await self._send({"type": "http.response.body", "body": frame, "more_body": True})

    async def finish(self, data: str, *, status: int = 200, headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        if self.streaming:
            frame = f"event: message\r\ndata: {data}\r\n\r\n".encode()
            await self._send({"type": "http.response.body", "body": frame, "more_body": False})
            return
        body = data.encode()
        start_headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            *headers,
        ]
        await self._send({"type": "http.response.start", "status": status, "headers": start_headers})
        await self._send({"type": "http.response.body", "body": body, "more_body": False})


# A handshake-era request's transport context: one of two, immutable (a dataclass made per request cost ~2.5 us).
_RELAYS = TransportContext(kind="jsonrpc", can_send_request=True)
_NO_RELAY = TransportContext(kind="jsonrpc", can_send_request=False)


class _HandshakeDispatch:
    """The dispatch context of a handshake-era request on the fast path (the SDK's `DispatchContext` shape).

    A request to the client (an upstream asking for sampling or elicitation
    mid-call) goes through the session's own dispatcher, which correlates the
    client's answer; the transport's router hands it to this request's stream,
    and from then on the answer is an event stream, as on the SDK's path.
    """

    def __init__(self, request_id: Any, request: Request, reply: _Reply, session: tuple[Any, Any] | None) -> None:
        self.transport = _RELAYS if session is not None else _NO_RELAY
        self.request_id = request_id
        self.message_metadata = ServerMessageMetadata(request_context=request)
        self._cancel_requested: anyio.Event | None = None
        self.cancelled = False
        """The client cancelled this request (its task was cancelled)."""
        self._reply = reply
        self._session = session  # (connection, transport) when requests can be relayed
        self._relay: asyncio.Task[None] | None = None

    @property
    def can_send_request(self) -> bool:
        return self._session is not None

    @property
    def cancel_requested(self) -> anyio.Event:
        """Set when the client cancels the request (made when first asked for: most requests never are)."""
        if self._cancel_requested is None:
            self._cancel_requested = anyio.Event()
        return self._cancel_requested

    async def send_raw_request(self, method: str, params: Any, opts: Any = None) -> dict[str, Any]:
        if self._session is None:
            from mcp.shared.exceptions import NoBackChannelError

            raise NoBackChannelError(method)
        self._open_relay()
        return await sdk.send_related_request(self._session[0].outbound, method, params, opts, self.request_id)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        if self._relay is not None:  # keep the order of what the dispatcher already sent
            await sdk.notify_related(self._session[0].outbound, method, params, opts, self.request_id)  # type: ignore[index]
            return
        message = (
            JSONRPCNotification(jsonrpc="2.0", method=method, params=dict(params))
            if params is not None
            else JSONRPCNotification(jsonrpc="2.0", method=method)
        )
        await self._reply.event(message.model_dump_json(by_alias=True, exclude_unset=True))

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        return  # only requests without a progress token take the fast path

    def _open_relay(self) -> None:
        if self._relay is not None or self._session is None:
            return
        from mcp.server.streamable_http import REQUEST_STREAM_BUFFER_SIZE, EventMessage

        writer, reader = anyio.create_memory_object_stream[EventMessage](REQUEST_STREAM_BUFFER_SIZE)
        sdk.request_streams(self._session[1])[str(self.request_id)] = (writer, reader)

        async def pump() -> None:
            async with reader:
                async for event in reader:
                    await self._reply.event(event.message.model_dump_json(by_alias=True, exclude_unset=True))

        self._relay = asyncio.ensure_future(pump())

    async def close(self) -> None:
        """Stop relaying; whatever the dispatcher sent for this request before its answer is written first."""
        if self._relay is None or self._session is None:
            return
        streams = sdk.request_streams(self._session[1]).pop(str(self.request_id), None)
        if streams is not None:
            await streams[0].aclose()
        try:
            await self._relay
        except Exception:  # the client left: nothing more can reach it
            logger.debug("relaying to the client failed", exc_info=True)


class _ModernDispatch(_HandshakeDispatch):
    """The dispatch context of a 2026-07-28 request on the fast path."""

    def __init__(self, request_id: Any, request: Request, reply: _Reply) -> None:
        super().__init__(request_id, request, reply, None)
        self.transport = TransportContext(kind="streamable-http", can_send_request=False, headers=request.headers)

    async def notify(self, method: str, params: Mapping[str, Any] | None, opts: Any = None) -> None:
        body = dict(params) if params is not None else None
        message = JSONRPCNotification(jsonrpc="2.0", method=method, params=body)
        await self._reply.event(_modern_json(message))


def _modern_json(message: JSONRPCResponse | JSONRPCError | JSONRPCNotification) -> str:
    body = message.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json.dumps(body, separators=(",", ":"))


def _request_shape(decoded: Any) -> tuple[Any, str, dict[str, Any] | None]:
    """(id, method, params) of one plain JSON-RPC request the fast path serves; raises `_Fallback` otherwise."""
    if not isinstance(decoded, dict) or not decoded.keys() <= _REQUEST_KEYS or decoded.get("jsonrpc") != "2.0":
        raise _Fallback("not a plain request")
    request_id = decoded.get("id")
    if not (isinstance(request_id, str) or (isinstance(request_id, int) and not isinstance(request_id, bool))):
        raise _Fallback("not a request")
    method = decoded.get("method")
    if method not in _FAST_METHODS:
        raise _Fallback("method")
    params = decoded.get("params")
    if params is not None and not isinstance(params, dict):
        raise _Fallback("not a plain request")
    if progress_token_from_params(params) is not None:
        raise _Fallback("progress token")
    return request_id, str(method), params


class HttpFastPath:
    """The ASGI app in front of the SDK's `/mcp` endpoint that answers plain requests itself.

    It stands in front of the other layers of `/mcp` (the id check, the first-request deadline, the SDK's
    endpoint): a request it answers is a plain one with a valid id, which the id check would have let through,
    and it tells the first-request deadline of it (`seen`) as that layer would have.

    Args:
        gateway: the gateway the requests are for.
        server: the SDK's low-level `Server` (its session manager already built).
        app: the ASGI app for `/mcp` behind it, which gets every other request.
        seen: told of every handshake-era request answered here, after its answer: (session id, its message).

    Attributes:
        taken: requests answered here.
        fallbacks: requests sent the SDK's way, by reason (only those the fast path looked at).
    """

    def __init__(
        self, gateway: Gateway, server: Any, app: Any, *, seen: Callable[[str, Any], None] | None = None
    ) -> None:
        self._gateway = gateway
        self._seen = seen
        self._server = server
        self._sdk = app
        self._manager = server.session_manager
        self._security = TransportSecurityMiddleware(self._manager.security_settings)
        # Handshake-era connections by HTTP session id, learned as the SDK serves their first request.
        self._connections: dict[str, Any] = {}
        # The SDK's request kernel of each such connection, made at its first request here and kept, as the SDK
        # keeps one per connection (made per request, with its cached handler, it cost ~2 us a call).
        self._runners: dict[str, ServerRunner[Any]] = {}
        # Requests answered here right now, by (session id, request id), with the task answering each:
        # a client may cancel them.
        self._running: dict[tuple[str, str], tuple[asyncio.Task[Any], _HandshakeDispatch]] = {}
        # Header values (Content-Type, Host, Origin, Accept) that passed the SDK's checks.
        self._passed: set[tuple[str | None, ...]] = set()
        self.taken = 0
        self.fallbacks: Counter[str] = Counter()
        # Only the SDK's default mode (event-stream answers, sessions, no replay) is mirrored here.
        self._active = not (self._manager.json_response or self._manager.stateless or self._manager.event_store)
        server.middleware = [self._middleware, *server.middleware]

    def stats(self) -> dict[str, Any]:
        """Requests answered here and sent the SDK's way (JSON-ready)."""
        return {"taken": self.taken, "fallbacks": dict(self.fallbacks)}

    async def _middleware(self, ctx: Any, call_next: Any) -> Any:
        """The SDK server middleware: learns connections, and decides tools/call before anything runs.

        A call the policy may ask about goes the SDK's way (`_NeedsStream`); a handshake-era call decided
        here is handed, with its decision, to the gateway, as the raw-JSON middleware next in the chain
        (`server.face`) would hand it without one.
        """
        request = ctx.request
        if isinstance(request, _FastRequest):
            if ctx.method == "tools/call":
                decided = self._decided(ctx)
                if decided is not None and ctx.protocol_version in HANDSHAKE_PROTOCOL_VERSIONS:
                    return await self._gateway.call_tool(ctx, ctx.params, decided=decided)
        elif request is not None:
            connection = sdk.connection_of(ctx.session)
            session_id = connection.session_id
            if session_id is not None and session_id not in self._connections:
                self._connections[session_id] = connection
                connection.exit_stack.callback(self._connections.pop, session_id, None)
                connection.exit_stack.callback(self._runners.pop, session_id, None)
        return await call_next(ctx)

    def _decided(self, ctx: Any) -> Decided | None:
        """The call decided now, by the pipeline; None when it runs no catalog tool (a search, an unknown tool,
        a bad call: it asks nobody).

        Raises:
            _NeedsStream: the call asks, or deciding it must wait (then it may ask).
        """
        params = ctx.params or {}
        name = params.get("name")
        if not isinstance(name, str):
            return None  # refused as an invalid call, asks nobody
        if "inputResponses" in params or "requestState" in params:
            raise _NeedsStream
        target = self._gateway.call_target(ctx, params)  # a call through call_tool asks as its tool would
        if target is None:
            return None
        entry, arguments = target
        decided = self._gateway.calls.decided_now(ctx, entry, arguments)
        if decided is None or decided.asks:
            raise _NeedsStream
        return decided

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._active or scope["type"] != "http" or scope["method"] != "POST" or scope.get("user") is not None:
            await self._sdk(scope, receive, send)
            return
        try:
            request = _FastRequest(scope, receive)
            version = request.headers.get("mcp-protocol-version")
            if version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS:
                await self._modern(request, await self._read(request), send)
            else:
                await self._handshake(request, send)
            self.taken += 1
            return
        except _Fallback as fallback:
            self.fallbacks[fallback.reason] += 1
            logger.debug("http fast path: %s; the SDK answers", fallback.reason)
            if fallback.body is not None:
                receive = replay(fallback.body, receive, more=fallback.more)
        await self._sdk(scope, receive, send)

    async def _read(self, request: Request) -> bytes:
        """The whole body, or `_Fallback` (with what was read) when it is over the SDK's limit."""
        limit = self._manager.max_request_body_size
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise _Fallback("body too large")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await request.receive()
            if message["type"] != "http.request":  # the client left: the SDK sees it when it reads on
                raise _Fallback("client gone", b"".join(chunks), more=True)
            chunk = message.get("body", b"")
            size += len(chunk)
            chunks.append(chunk)
            if size > limit:
                raise _Fallback("body too large", b"".join(chunks), more=message.get("more_body", False))
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _checked(self, request: Request) -> None:
        """The SDK's header checks (Host, Origin, Content-Type, Accept); `_Fallback` if any fails.

        They read only those four headers, with settings fixed at start: headers that passed once
        pass again without being checked (clients send the same few).
        """
        headers = request.headers
        key = (headers.get("content-type"), headers.get("host"), headers.get("origin"), headers.get("accept"))
        if key in self._passed:
            return
        if await self._security.validate_request(request, is_post=True) is not None:
            raise _Fallback("refused headers")
        content_type = request.headers.get("content-type", "")
        if "application/json" not in (part.strip() for part in content_type.split(";")[0].split(",")):
            raise _Fallback("content type")
        has_json, has_sse = check_accept_headers(request)
        if not (has_json and has_sse):
            raise _Fallback("accept")
        if len(self._passed) >= _PASSED_KEPT:
            self._passed.clear()
        self._passed.add(key)

    # -- the handshake era ---------------------------------------------------

    async def _handshake(self, request: Request, send: Send) -> None:
        session_id = request.headers.get("mcp-session-id")
        if session_id is None:
            raise _Fallback("no session")
        manager = self._manager
        transport = sdk.http_transport(manager, session_id)
        connection = self._connections.get(session_id)
        idle = sdk.idle_scope(transport) if transport is not None else None
        if (
            transport is None
            or connection is None
            or transport.is_terminated
            or sdk.owned_session(manager, session_id)
            or (idle is not None and idle.cancel_called)
        ):
            raise _Fallback("session unknown here")
        await self._checked(request)
        body = await self._read(request)
        try:
            decoded = pydantic_core.from_json(body)
        except ValueError:
            raise _Fallback("parse error", body) from None
        if isinstance(decoded, dict) and decoded.get("method") == "notifications/cancelled":
            self._cancel(session_id, decoded.get("params"))  # the SDK takes the notification as well
        try:
            request_id, method, params = _request_shape(decoded)
        except _Fallback as fallback:
            raise _Fallback(fallback.reason, body) from None
        if not connection.initialize_accepted:
            raise _Fallback("before initialized", body)
        sse_headers = [*_SSE_HEADERS, (b"content-type", b"text/event-stream"), _session_header(session_id)]
        reply = _Reply(send, [*sse_headers, (b"x-accel-buffering", b"no")])
        dispatch = _HandshakeDispatch(request_id, request, reply, (connection, transport))
        state = sdk.lifespan_state(manager)
        runner = self._runners.get(session_id)
        if runner is None or runner.connection is not connection or runner.lifespan_state is not state:
            runner = self._runners[session_id] = ServerRunner(self._server, connection, state)
        key = (session_id, str(request_id))
        # A cancellation by the client cancels this task (`_cancel`), which answers it: asyncio's own, not a
        # cancel scope around each request, which costs more than the rest of this method.
        task = asyncio.current_task()
        assert task is not None
        caught = False
        with sdk.ServingHold(transport):
            self._running[key] = (task, dispatch)
            try:
                try:
                    result = await runner.on_request(dispatch, method, params)
                finally:
                    if self._running.get(key, (None,))[0] is task:
                        del self._running[key]
                    await dispatch.close()
            except asyncio.CancelledError:
                if not dispatch.cancelled or task.uncancel() > 0:
                    raise  # not (only) the client's: the server is stopping, or the client left
                caught = True
            except _NeedsStream:
                if dispatch.cancelled:
                    task.uncancel()
                raise _Fallback("may ask", body) from None
            except Exception as exc:
                error = handler_exception_to_error_data(exc)
                if error is None:
                    logger.exception("handler for %r raised", method)
                    error = ErrorData(code=0, message=str(exc))
                answer: JSONRPCResponse | JSONRPCError | str = JSONRPCError(jsonrpc="2.0", id=request_id, error=error)
            else:
                answer = _response(request_id, result)
        if dispatch.cancelled and not caught:
            task.uncancel()  # the call ended before the cancellation reached it: its answer goes out
        if caught:  # the client cancelled it: answered as the SDK answers this era's cancelled requests
            error = ErrorData(code=REQUEST_CANCELLED, message="Request cancelled")
            answer = JSONRPCError(jsonrpc="2.0", id=request_id, error=error)
        data = answer if isinstance(answer, str) else answer.model_dump_json(by_alias=True, exclude_unset=True)
        await reply.finish(data, headers=(_session_header(session_id),))
        if self._seen is not None:
            self._seen(session_id, decoded)

    def _cancel(self, session_id: str, params: Any) -> None:
        """Cancel a request of the session running here, as a `notifications/cancelled` asks."""
        request_id = params.get("requestId") if isinstance(params, dict) else None
        if request_id is None or isinstance(request_id, bool):
            return
        running = self._running.get((session_id, str(request_id)))
        if running is not None and not running[1].cancelled:
            running[1].cancelled = True
            running[1].cancel_requested.set()
            running[0].cancel()

    # -- the 2026-07-28 era ----------------------------------------------------

    async def _modern(self, request: Request, body: bytes, send: Send) -> None:
        def fall(reason: str) -> _Fallback:
            return _Fallback(reason, body)

        if await self._security.validate_request(request, is_post=True) is not None:
            raise fall("refused headers")
        has_json, has_sse = check_accept_headers(request)
        if not (has_json and has_sse):
            raise fall("accept")
        try:
            decoded = jsontext.loads(body)
        except (ValueError, RecursionError):
            raise fall("parse error") from None
        try:
            request_id, method, params = _request_shape(decoded)
        except _Fallback as fallback:
            raise fall(fallback.reason) from None
        if find_duplicated_routing_header(request.headers.items()) is not None:
            raise fall("routing headers")
        verdict = classify_inbound_request(decoded, headers=dict(request.headers))
        if isinstance(verdict, InboundLadderRejection):
            raise fall("envelope")
        if method == "tools/call" and self._param_headers_refused(request, params or {}):
            raise fall("Mcp-Param headers")
        from mcp.server.connection import Connection

        connection = Connection.from_envelope(
            verdict.protocol_version, verdict.client_info, verdict.client_capabilities
        )
        reply = _Reply(send, _MODERN_SSE_HEADERS)
        dispatch = _ModernDispatch(request_id, request, reply)
        lifespan = sdk.lifespan_state(self._manager)
        try:
            result = await serve_one(
                self._server, dispatch, method, params, connection=connection, lifespan_state=lifespan
            )
        except _NeedsStream:
            raise fall("may ask") from None
        except Exception as exc:
            answer: JSONRPCResponse | JSONRPCError = JSONRPCError(
                jsonrpc="2.0", id=request_id, error=modern_error_data(exc)
            )
        else:
            answer = JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result)
        status = ERROR_CODE_HTTP_STATUS.get(answer.error.code, 200) if isinstance(answer, JSONRPCError) else 200
        await reply.finish(_modern_json(answer), status=status)

    def _param_headers_refused(self, request: Request, params: Mapping[str, Any]) -> bool:
        """Whether the SDK would refuse the call's `Mcp-Param-*` headers against its tool's schema."""
        arguments = params.get("arguments")
        name = params.get("name")
        if not isinstance(name, str) or (arguments is not None and not isinstance(arguments, Mapping)):
            return False
        if not arguments and not any(header.startswith("mcp-param-") for header in request.headers):
            return False
        lookup = self._server.get_tool_input_schema
        schema = lookup(name) if lookup is not None else None
        if schema is None:
            return lookup is None  # no cheap schema: let the SDK walk the listing
        return validate_mcp_param_headers(schema, arguments or {}, request.headers) is not None


def _response(request_id: Any, result: Any) -> JSONRPCResponse | str:
    """A handshake-era success answer, as `JSONRPCResponse.model_dump_json` writes it.

    A plain dict result (every handler's) is written straight by the same serializer,
    without building and validating the model around it first (a `WrittenResult` too: its text, written by the
    result scan, may hold NaN, which this serializer writes as null).
    """
    kind = type(result)
    if kind is dict or kind is WrittenResult:
        body = {"jsonrpc": "2.0", "id": request_id, "result": result}
        return pydantic_core.to_json(body, inf_nan_mode="null").decode()
    return JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result)


def _session_header(session_id: str) -> tuple[bytes, bytes]:
    return (b"mcp-session-id", session_id.encode("latin-1"))
