"""The gateway: one MCP server face over many sources, every tool fully annotated.

The MCP SDK's low-level `Server` speaks to clients (both protocol eras, stdio
and streamable HTTP, sessions); hintgate keeps what upstreams send as raw
JSON and hands it back as raw JSON, so nothing an upstream says is lost or
re-validated on the way through. `tools/call` on handshake-era connections
takes a shorter path still: a server middleware answers it before the SDK
validates parameters into models.

Errors become MCP errors in exactly one place, `to_mcp_error`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from hintgate.config.model import GatewayConfig, Trust
from hintgate.errors import (
    HintgateError,
    UpstreamError,
    UpstreamRequestError,
)
from hintgate.hints.annotations import Hint
from hintgate.hints.catalog import Catalog, ResolvedTool, build_catalog, public_name, resolve_tool
from hintgate.pipeline import ClientCall, ToolCalls, tool_error
from hintgate.policy.rules import PolicySettings, Rule
from hintgate.server.sessions import ClientSession, SessionTracker
from hintgate.sources import build_sources
from hintgate.sources.base import Source, SourceState

if TYPE_CHECKING:
    from hintgate.store import Store

__all__ = ["PAGE_SIZE", "Gateway", "to_mcp_error", "tool_error"]

logger = logging.getLogger(__name__)

PAGE_SIZE = 500
"""Items per page of the gateway's own list results."""

_MODERN = frozenset(MODERN_PROTOCOL_VERSIONS)
_STANDARD_KINDS = ("tools", "prompts", "resources")


def to_mcp_error(exc: Exception) -> Exception:
    """The one translation of hintgate's errors into MCP's (JSON-RPC) errors."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import INTERNAL_ERROR, INVALID_PARAMS

    if isinstance(exc, UpstreamRequestError):
        # The upstream's own JSON-RPC error passes through as it was.
        message = exc.detail.rsplit(" (JSON-RPC error", 1)[0]
        return MCPError(code=exc.code, message=message, data=exc.data)
    if isinstance(exc, _UnknownName):
        return MCPError(code=INVALID_PARAMS, message=str(exc))
    return MCPError(code=INTERNAL_ERROR, message=str(exc))


def _complete(ctx: Any, result: dict[str, Any]) -> dict[str, Any]:
    """Mark a result complete on 2026-07-28 connections, where `resultType` is required.

    Upstreams speak the handshake era, whose results carry no `resultType`.
    """
    if ctx is not None and ctx.protocol_version in _MODERN and "resultType" not in result:
        return {**result, "resultType": "complete"}
    return result


class _UnknownName(HintgateError):
    """A request named a tool, prompt or resource the gateway does not have."""


@dataclass(frozen=True, slots=True)
class _Routed:
    server: str
    upstream_name: str
    wire: Mapping[str, Any]


class _DirectOutbound:
    """The client channel of a direct stdio call: requests through the SDK's connection, notifications written."""

    def __init__(self, connection: Any, write: Any) -> None:
        self._connection = connection
        self._write = write

    async def send_raw_request(self, method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
        # The SDK correlates the client's answer, which arrives on the same pipe.
        result: dict[str, Any] = await self._connection.outbound.send_raw_request(method, params)
        return result

    async def notify(self, method: str, params: Mapping[str, Any] | None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        await self._write(message)


class _DirectSession:
    """What `ToolCalls` reads of a request's session, for a call taken off the stdio pipe directly."""

    def __init__(self, connection: Any, progress_token: Any, write: Any) -> None:
        self._connection = connection
        self._request_outbound = _DirectOutbound(connection, write)
        self._token = progress_token

    @property
    def client_params(self) -> Any:
        return self._connection.client_params

    @property
    def client_capabilities(self) -> Any:
        return self._connection.client_capabilities

    async def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        if self._token is None:
            return  # the client asked for no progress
        params: dict[str, Any] = {"progressToken": self._token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self._request_outbound.notify("notifications/progress", params)


class _DirectContext:
    """The request context of a direct stdio call: the fields of the SDK's that hintgate reads."""

    method = "tools/call"
    request = None

    def __init__(self, connection: Any, request: Mapping[str, Any], write: Any) -> None:
        params = request.get("params")
        self.params = params if isinstance(params, Mapping) else None
        meta = self.params.get("_meta") if self.params else None
        token = meta.get("progressToken") if isinstance(meta, Mapping) else None
        self.protocol_version = connection.protocol_version
        self.request_id = request.get("id")
        self.session = _DirectSession(connection, token, write)


class _DirectStdioCalls:
    """Takes handshake-era tools/call off the stdio pipe before the SDK (see `hintgate.server.stdio`)."""

    def __init__(self, gateway: Gateway) -> None:
        self._gateway = gateway

    def ready(self) -> bool:
        connection = self._gateway._stdio_connection
        return (
            connection is not None
            and bool(connection.initialize_accepted)
            and connection.protocol_version not in _MODERN
        )

    async def call(self, request: dict[str, Any], write: Any) -> dict[str, Any]:
        from mcp.shared.exceptions import MCPError

        ctx = _DirectContext(self._gateway._stdio_connection, request, write)
        try:
            result = await self._gateway.call_tool(ctx, ctx.params)
        except MCPError as exc:
            return {"jsonrpc": "2.0", "id": request["id"], "error": exc.error.model_dump(exclude_none=True)}
        except Exception as exc:
            logger.exception("tools/call failed")
            return {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": str(exc)}}
        return {"jsonrpc": "2.0", "id": request["id"], "result": result}


class Gateway:
    """The running gateway: sources, catalog, and the MCP server face.

    Use as an async context manager: entering starts every enabled upstream
    concurrently and waits (bounded by each one's startup timeout) for its
    first attempt, so the first `tools/list` is complete; leaving stops them.
    """

    def __init__(
        self,
        config: GatewayConfig,
        *,
        environ: Mapping[str, str] | None = None,
        store: Store | None = None,
        sources: Mapping[str, Source] | None = None,
        policy: tuple[PolicySettings, tuple[Rule, ...]] | None = None,
        state_key: str | None = None,
    ) -> None:
        self.config = config
        environ = os.environ if environ is None else environ
        self.sources: dict[str, Source] = (
            dict(sources) if sources is not None else build_sources(config, environ=environ, listener=self._on_change)
        )
        self.stored_overrides: dict[str, dict[Hint, bool]] = {}
        self._overrides_version = 0
        self.catalog = Catalog({})
        self._prompts: dict[str, _Routed] = {}
        self._resources: dict[str, str] = {}
        self._templates: list[tuple[str, Mapping[str, Any]]] = []
        self._last_server_of: dict[str, str] = {}
        self.store = store
        self.sessions = SessionTracker(
            on_start=self._session_started, on_end=self._session_ended, modern_versions=_MODERN
        )
        self.modern_versions = _MODERN
        settings, rules = policy if policy is not None else config.policy
        self.calls = ToolCalls(self, settings=settings, rules=rules)
        self._tasks: list[asyncio.Task[None]] = []
        self._stdio_connection: Any = None
        self._state_key = state_key
        self._bus: Any = None
        self._server: Any = None

    async def __aenter__(self) -> Gateway:
        if self.store is not None:
            await self.load_overrides()
            self._tasks.append(asyncio.create_task(self._follow_overrides(), name="overrides"))
        self._tasks.append(asyncio.create_task(self._expire_sessions(), name="sessions"))
        for source in self.sources.values():
            self._tasks.append(asyncio.create_task(source.run(), name=f"source:{source.name}"))
        await asyncio.gather(
            *(s.wait_started(s.startup_timeout + self.config.timeouts.list) for s in self.sources.values())
        )
        # Names taken while upstreams came up in whatever order are forgotten: the first full build is in config order.
        self._last_server_of.clear()
        self.rebuild()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.sessions.close_all()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    # -- the catalog -------------------------------------------------------

    def resolve(self, source: Source, raw: Mapping[str, Any]) -> ResolvedTool:
        """Resolve one source tool: declared, config and stored overrides, inference, trust."""
        public = public_name(source.prefix, str(raw.get("name", "")))
        # A stored override belongs to the tool that holds the public name, not to a newcomer that wants it.
        stored = (
            self.stored_overrides.get(public) if self._last_server_of.get(public, source.name) == source.name else None
        )
        return resolve_tool(
            raw,
            facts=source.tool_facts(raw),
            trusted=source.trust is Trust.TRUSTED,
            overrides=stored,
            profile=self.config.inference_profile,
        )

    def rebuild(self, kinds: Sequence[str] = _STANDARD_KINDS) -> None:
        """Rebuild the catalog (and the prompt and resource routes) from the upstreams' listings."""
        up = [s for s in self.sources.values() if s.status.state is SourceState.UP]
        if "tools" in kinds:
            groups = []
            for source in up:
                resolved = []
                for raw in source.tools:
                    name = raw.get("name")
                    if not isinstance(name, str) or not source.wants(name):
                        continue
                    try:
                        resolved.append(self.resolve(source, raw))
                    except HintgateError as exc:
                        logger.warning("%s: tool %r skipped: %s", source.name, name, exc)
                groups.append((source.name, source.prefix, resolved))
            self.catalog = build_catalog(groups, held=self._last_server_of)
            for problem in self.catalog.problems:
                logger.warning("%s", problem)
            for entry in self.catalog.entries.values():
                self._last_server_of[entry.name] = entry.server
        if "prompts" in kinds:
            prompts: dict[str, _Routed] = {}
            for source in up:
                for raw in source.prompts:
                    name = raw.get("name")
                    if isinstance(name, str):
                        public = public_name(source.prefix, name, limit=128)
                        prompts.setdefault(public, _Routed(source.name, name, {**raw, "name": public}))
            self._prompts = prompts
        if "resources" in kinds:
            # Resource URIs are addresses that tool results and clients quote, so they
            # are not renamed: the first server to list a URI owns it.
            resources: dict[str, str] = {}
            templates: list[tuple[str, Mapping[str, Any]]] = []
            for source in up:
                for raw in source.resources:
                    uri = raw.get("uri")
                    if isinstance(uri, str):
                        resources.setdefault(uri, source.name)
                templates.extend((source.name, raw) for raw in source.resource_templates)
            self._resources = resources
            self._templates = templates

    async def _on_change(self, server: str, what: str) -> None:
        if what == "status":
            self.rebuild()
            await self._broadcast(_STANDARD_KINDS)
        elif what in _STANDARD_KINDS:
            self.rebuild((what,))
            await self._broadcast((what,))
        elif what.startswith("resource-updated:"):
            await self._broadcast_resource_updated(what.partition(":")[2])

    async def load_overrides(self) -> None:
        """Take the store's overrides (set through the API or dashboard) into the catalog."""
        if self.store is None:
            return
        stored: dict[str, dict[Hint, bool]] = {}
        for row in await self.store.overrides():
            stored.setdefault(row["tool"], {})[Hint(row["hint"])] = bool(row["value"])
        self.stored_overrides = stored
        self._overrides_version = await self.store.overrides_version()

    async def apply_overrides(self, tool: str, changes: Mapping[Hint, bool | None], *, actor: str) -> None:
        """Set (true / false) or clear (None) an operator's overrides of a public tool name.

        Written to the store first (when there is one), then applied to the
        catalog at once; clients are told the tool list changed.
        """
        if self.store is not None:
            for hint, value in changes.items():
                if value is None:
                    await self.store.clear_override(tool, hint.value)
                else:
                    await self.store.set_override(tool, hint.value, value, actor=actor)
            self._overrides_version = await self.store.overrides_version()
        current = dict(self.stored_overrides.get(tool, {}))
        for hint, value in changes.items():
            if value is None:
                current.pop(hint, None)
            else:
                current[hint] = value
        if current:
            self.stored_overrides[tool] = current
        else:
            self.stored_overrides.pop(tool, None)
        self.rebuild(("tools",))
        await self._broadcast(("tools",))

    async def _expire_sessions(self, interval: float = 60.0) -> None:
        """Close 2026-07-28 sessions (they have no connection to end) once their client has gone quiet."""
        while True:
            await asyncio.sleep(interval)
            self.sessions.expire()

    async def _follow_overrides(self, interval: float = 2.0) -> None:
        """Pick up overrides another replica wrote to the shared store (cheap: one counter read)."""
        assert self.store is not None
        while True:
            await asyncio.sleep(interval)
            try:
                version = await self.store.overrides_version()
                if version != self._overrides_version:
                    await self.load_overrides()
                    self.rebuild(("tools",))
                    await self._broadcast(("tools",))
            except HintgateError as exc:
                logger.warning("reading overrides from the store failed: %s", exc)

    # -- telling clients ---------------------------------------------------

    def _session(self, ctx: Any) -> ClientSession:
        return self.sessions.for_request(ctx)

    def _session_started(self, session: ClientSession) -> None:
        if self.store is not None:
            from hintgate.store import SessionRecord

            self.store.session_started(
                SessionRecord(
                    id=session.id,
                    client_name=session.client_name,
                    client_version=session.client_version,
                    started_at=session.started_at,
                    transport=session.transport,
                    replica=self.store.replica,
                )
            )

    def _session_ended(self, session: ClientSession) -> None:
        if self.store is not None and session.ended_at is not None:
            self.store.session_closed(session.id, session.ended_at)

    async def _broadcast(self, kinds: Sequence[str]) -> None:
        from mcp.server.subscriptions import PromptsListChanged, ResourcesListChanged, ToolsListChanged

        events = {"tools": ToolsListChanged, "prompts": PromptsListChanged, "resources": ResourcesListChanged}
        for kind in kinds:
            if self._bus is not None:
                await self._bus.publish(events[kind]())
            for connection in self.sessions.connections():
                send = getattr(connection, f"send_{kind[:-1] if kind != 'resources' else 'resource'}_list_changed")
                with contextlib.suppress(Exception):
                    await send()

    async def _broadcast_resource_updated(self, uri: str) -> None:
        from mcp.server.subscriptions import ResourceUpdated

        if self._bus is not None:
            await self._bus.publish(ResourceUpdated(uri=uri))
        for connection in self.sessions.connections():
            with contextlib.suppress(Exception):
                await connection.send_resource_updated(uri)

    # -- requests ----------------------------------------------------------

    async def call_tool(self, ctx: Any, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """Run a tools/call under the policy; returns the upstream's result JSON as it was, or a tool error."""
        if not isinstance(params, Mapping) or not isinstance(params.get("name"), str):
            raise to_mcp_error(_UnknownName("tools/call needs a string 'name'"))
        name = params["name"]
        arguments = params.get("arguments")
        if arguments is not None and not isinstance(arguments, Mapping):
            raise to_mcp_error(_UnknownName(f"tools/call {name!r}: 'arguments' must be an object"))
        entry = self.catalog.get(name)
        if entry is None:
            server = self._last_server_of.get(name)
            if server is not None:
                upstream = self.sources[server]
                status = upstream.status
                return tool_error(
                    f"The tool {name!r} is unavailable: server {server!r} is {status.state.value}"
                    + (f" ({status.reason})" if status.reason else "")
                    + "."
                )
            raise to_mcp_error(_UnknownName(f"Unknown tool: {name}"))
        return await self.calls(ctx, entry, arguments, params)

    def list_page(self, items: Sequence[Mapping[str, Any]], key: str, params: Any) -> dict[str, Any]:
        """One page of a list result, with an opaque cursor for the next."""
        cursor = getattr(params, "cursor", None) if not isinstance(params, Mapping) else params.get("cursor")
        start = 0
        if cursor:
            try:
                start = int(base64.urlsafe_b64decode(cursor.encode()).decode())
                if start < 0:
                    raise ValueError(start)  # a negative offset would page from the end
            except (ValueError, UnicodeDecodeError):
                raise to_mcp_error(_UnknownName(f"invalid cursor {cursor!r}")) from None
        end = start + PAGE_SIZE
        result: dict[str, Any] = {key: list(items[start:end])}
        if end < len(items):
            result["nextCursor"] = base64.urlsafe_b64encode(str(end).encode()).decode()
        return result

    async def _route(self, server: str, method: str, params: Mapping[str, Any] | None, ctx: Any) -> dict[str, Any]:
        upstream = self.sources[server]
        try:
            return await upstream.request(method, dict(params) if params else None, context=ClientCall(ctx))
        except UpstreamError as exc:
            raise to_mcp_error(exc) from exc

    def _resource_server(self, uri: str) -> str:
        server = self._resources.get(uri)
        if server is not None:
            return server
        for name, template in self._templates:
            pattern = template.get("uriTemplate")
            if isinstance(pattern, str) and _template_matches(pattern, uri):
                return name
        servers = {name for name, _ in self._templates} | set(self._resources.values())
        if len(servers) == 1:
            return next(iter(servers))
        raise to_mcp_error(_UnknownName(f"Unknown resource: {uri}"))

    # -- the MCP server face -----------------------------------------------

    def build_server(self) -> Any:
        """The SDK's low-level `Server` wired to this gateway."""
        import mcp_types as types
        from mcp.server.caching import CACHEABLE_METHODS, CacheHint
        from mcp.server.lowlevel import NotificationOptions, Server
        from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
        from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler

        from hintgate import __version__

        gateway = self
        self._bus = InMemorySubscriptionBus()

        class _Server(Server[Any]):
            def create_initialization_options(self, notification_options: Any = None, *a: Any, **k: Any) -> Any:
                options = notification_options or NotificationOptions(True, True, True)
                return super().create_initialization_options(options, *a, **k)

        async def list_tools(ctx: Any, params: Any) -> dict[str, Any]:
            gateway._session(ctx)
            return _complete(ctx, gateway.list_page(gateway.catalog.wire, "tools", params))

        async def call_tool(ctx: Any, params: Any) -> dict[str, Any]:
            gateway._session(ctx)
            return _complete(ctx, await gateway.call_tool(ctx, params.model_dump(by_alias=True, exclude_none=True)))

        async def list_prompts(ctx: Any, params: Any) -> dict[str, Any]:
            gateway._session(ctx)
            return _complete(ctx, gateway.list_page([r.wire for r in gateway._prompts.values()], "prompts", params))

        async def get_prompt(ctx: Any, params: Any) -> dict[str, Any]:
            routed = gateway._prompts.get(params.name)
            if routed is None:
                raise to_mcp_error(_UnknownName(f"Unknown prompt: {params.name}"))
            forwarded = params.model_dump(by_alias=True, exclude_none=True)
            forwarded["name"] = routed.upstream_name
            return _complete(ctx, await gateway._route(routed.server, "prompts/get", forwarded, ctx))

        async def list_resources(ctx: Any, params: Any) -> dict[str, Any]:
            gateway._session(ctx)
            items = [r for u in gateway.sources.values() if u.status.state is SourceState.UP for r in u.resources]
            return _complete(ctx, gateway.list_page(items, "resources", params))

        async def list_templates(ctx: Any, params: Any) -> dict[str, Any]:
            return _complete(ctx, gateway.list_page([t for _, t in gateway._templates], "resourceTemplates", params))

        async def read_resource(ctx: Any, params: Any) -> dict[str, Any]:
            uri = str(params.uri)
            return _complete(
                ctx, await gateway._route(gateway._resource_server(uri), "resources/read", {"uri": uri}, ctx)
            )

        async def subscribe(ctx: Any, params: Any) -> dict[str, Any]:
            gateway._session(ctx)
            uri = str(params.uri)
            return await gateway._route(gateway._resource_server(uri), "resources/subscribe", {"uri": uri}, ctx)

        async def unsubscribe(ctx: Any, params: Any) -> dict[str, Any]:
            uri = str(params.uri)
            return await gateway._route(gateway._resource_server(uri), "resources/unsubscribe", {"uri": uri}, ctx)

        async def complete(ctx: Any, params: Any) -> dict[str, Any]:
            forwarded = params.model_dump(by_alias=True, exclude_none=True)
            ref = forwarded.get("ref", {})
            if ref.get("type") == "ref/prompt":
                routed = gateway._prompts.get(ref.get("name", ""))
                if routed is None:
                    raise to_mcp_error(_UnknownName(f"Unknown prompt: {ref.get('name')}"))
                forwarded["ref"] = {**ref, "name": routed.upstream_name}
                server = routed.server
            else:
                server = gateway._resource_server(str(ref.get("uri", "")))
            return _complete(ctx, await gateway._route(server, "completion/complete", forwarded, ctx))

        async def set_level(_ctx: Any, _params: Any) -> dict[str, Any]:
            return {}

        # The handlers return the upstreams' JSON as dicts (the SDK serializes
        # dicts as they are), not the SDK's result models the signatures name.
        handlers: dict[str, Any] = {
            "on_list_tools": list_tools,
            "on_call_tool": call_tool,
            "on_list_prompts": list_prompts,
            "on_get_prompt": get_prompt,
            "on_list_resources": list_resources,
            "on_list_resource_templates": list_templates,
            "on_read_resource": read_resource,
            "on_subscribe_resource": subscribe,
            "on_unsubscribe_resource": unsubscribe,
            "on_completion": complete,
            "on_subscriptions_listen": ListenHandler(self._bus),
        }
        # The catalog changes live (overrides, upstream restarts): never fresh.
        never_fresh: dict[Any, CacheHint] = {
            method: CacheHint(ttl_ms=0, scope="private") for method in CACHEABLE_METHODS
        }
        server = _Server(
            "hintgate",
            version=__version__,
            title="hintgate",
            description="An MCP gateway that makes tool annotations complete, explainable and enforced.",
            cache_hints=never_fresh,
            **handlers,
        )
        server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)

        async def fast_path(ctx: Any, call_next: Any) -> Any:
            if ctx.request is None and gateway._stdio_connection is None:
                # stdio has one connection; remember it for calls taken off the pipe directly.
                gateway._stdio_connection = getattr(ctx.session, "_connection", None)
            # Handshake-era tools/call and tools/list skip the SDK's model validation
            # both ways: the upstream's JSON goes back as it was, and a large catalog
            # is not re-validated into models on every listing.
            if ctx.request_id is not None and ctx.protocol_version not in _MODERN:
                if ctx.method == "tools/call":
                    gateway._session(ctx)
                    return await gateway.call_tool(ctx, ctx.params)
                if ctx.method == "tools/list" and gateway.sessions.initialized(ctx):
                    gateway._session(ctx)
                    return gateway.list_page(gateway.catalog.wire, "tools", ctx.params or {})
            return await call_next(ctx)

        # The SDK installs an OpenTelemetry middleware by default; a gateway on the
        # hot path of every call keeps only its own.
        # 2026-07-28 approvals travel in an InputRequiredResult whose requestState the
        # boundary seals (and verifies when the client answers), so it cannot be forged.
        security = RequestStateSecurity(keys=[self._state_key]) if self._state_key else RequestStateSecurity.ephemeral()
        boundary = RequestStateBoundary(security, default_audience="hintgate")
        server.middleware = [fast_path, boundary]
        self._server = server
        return server

    async def serve_stdio(self) -> None:
        """Serve MCP on this process's stdin and stdout until the client closes them."""
        from hintgate.server.stdio import stdio_streams

        server = self._server or self.build_server()
        async with stdio_streams(direct=_DirectStdioCalls(self)) as (read, write):
            await server.run(read, write, server.create_initialization_options())

    @asynccontextmanager
    async def mcp_routes(self, *, host: str = "127.0.0.1") -> AsyncIterator[list[Any]]:
        """The Starlette routes serving MCP at `/mcp` (streamable HTTP), with their session manager running."""
        server = self._server or self.build_server()
        app = server.streamable_http_app(streamable_http_path="/mcp", host=host)
        async with server.session_manager.run():
            yield list(app.routes)


def _template_matches(template: str, uri: str) -> bool:
    """Whether `uri` could come from an RFC 6570 level-1 template (`file:///{path}`)."""
    import re

    parts = re.split(r"\{[^}]*\}", template)
    pattern = "(.+?)".join(re.escape(p) for p in parts)
    return re.fullmatch(pattern, uri) is not None
