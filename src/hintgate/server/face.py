"""The gateway's MCP face: the SDK's low-level `Server`, its handlers and the raw-JSON middleware.

The MCP SDK's low-level `Server` speaks to clients (both protocol eras, stdio
and streamable HTTP, sessions); hintgate keeps what upstreams send as raw
JSON and hands it back as raw JSON, so nothing an upstream says is lost or
re-validated on the way through. `tools/call` and `tools/list` on
handshake-era connections skip the SDK's models altogether: a server
middleware (`raw_json`) answers them before the SDK validates their
parameters into models, whichever transport brought them (stdio, the SDK's
HTTP path, or `server.http_fast`).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from hintgate.errors import UpstreamError, UpstreamRequestError
from hintgate.request_context import RequestContext
from hintgate.server import sdk
from hintgate.server.client_call import ClientCall
from hintgate.server.eras import MODERN_VERSIONS
from hintgate.server.errors import to_mcp_error
from hintgate.server.front import DESCRIPTION, NAME
from hintgate.server.resolution import RESOLVE, ToolResolution, resolve_params_model
from hintgate.server.routing import list_page
from hintgate.server.state_boundary import LazyStateBoundary
from hintgate.server.tasks import task_params_model
from hintgate.server.view_endpoint import ViewEndpoint
from hintgate.sources.base import SourceState
from hintgate.sources.capabilities import Forwards, ServesPrompts
from hintgate.sources.trust_annotations import TRUST

if TYPE_CHECKING:
    from hintgate.server.gateway import Gateway

__all__ = ["MODERN_VERSIONS", "build_server", "complete", "mcp_routes", "sdk_server"]


Handler = Callable[[RequestContext, Any], Awaitable[dict[str, Any]]]


def complete(ctx: RequestContext | None, result: dict[str, Any]) -> dict[str, Any]:
    """Mark a result complete on 2026-07-28 connections, where `resultType` is required.

    Upstreams speak the handshake era, whose results carry no `resultType`.
    """
    if ctx is not None and ctx.protocol_version in MODERN_VERSIONS and "resultType" not in result:
        return {**result, "resultType": "complete"}
    return result


async def _route(
    gateway: Gateway, server: str, method: str, params: Mapping[str, Any] | None, ctx: RequestContext
) -> dict[str, Any]:
    """Forward a request to the source that serves it; its errors become MCP errors."""
    upstream = gateway.sources[server]
    try:
        if not isinstance(upstream, Forwards):  # reloaded into a source with tools only since it was routed
            raise UpstreamRequestError(f"{method} is not supported by this server", code=-32601, server=server)
        return await upstream.request(method, dict(params) if params else None, context=ClientCall(ctx))
    except UpstreamError as exc:
        raise to_mcp_error(exc) from exc


def _tools_page(gateway: Gateway, resolution: ToolResolution, ctx: RequestContext, params: Any) -> dict[str, Any]:
    """A page of `tools/list` for a request's client: its view's tools, a person's own (only what they may
    reach), shaped by the search mode (`hintgate.server.discovery`); for a client that declared the Tool
    Resolution extension, the resolvable tools marked."""
    gateway.first_answer.listing_served()
    listing, _view = gateway.listing(ctx)
    page = list_page(resolution.listing(ctx, listing.wire), "tools", params)
    if gateway.sessions.for_request(ctx).principal is not None:
        page["cacheScope"] = "private"  # a person's own list: no cache between people may hold it
    return page


def _handlers(gateway: Gateway, resolution: ToolResolution) -> dict[str, Handler]:
    """The SDK `Server`'s request handlers, by its keyword names.

    They return the upstreams' JSON as dicts (the SDK serializes dicts as they
    are), not the SDK's result models the signatures name.
    """
    routes = gateway.routes

    async def list_tools(ctx: RequestContext, params: Any) -> dict[str, Any]:
        return complete(ctx, _tools_page(gateway, resolution, ctx, params))

    async def call_tool(ctx: RequestContext, params: Any) -> dict[str, Any]:
        return complete(ctx, await gateway.call_tool(ctx, params.model_dump(by_alias=True, exclude_none=True)))

    async def list_prompts(ctx: RequestContext, params: Any) -> dict[str, Any]:
        gateway.sessions.for_request(ctx)
        return complete(ctx, list_page([r.wire for r in routes.prompts.values()], "prompts", params))

    async def get_prompt(ctx: RequestContext, params: Any) -> dict[str, Any]:
        routed = routes.prompt(params.name)
        forwarded = params.model_dump(by_alias=True, exclude_none=True)
        forwarded["name"] = routed.upstream_name
        return complete(ctx, await _route(gateway, routed.server, "prompts/get", forwarded, ctx))

    async def list_resources(ctx: RequestContext, params: Any) -> dict[str, Any]:
        gateway.sessions.for_request(ctx)
        up = [u for u in gateway.sources.values() if u.status.state is SourceState.UP]
        items = [r for u in up if isinstance(u, ServesPrompts) for r in u.resources]
        return complete(ctx, list_page(items, "resources", params))

    async def list_templates(ctx: RequestContext, params: Any) -> dict[str, Any]:
        return complete(ctx, list_page([t for _, t in routes.templates], "resourceTemplates", params))

    async def read_resource(ctx: RequestContext, params: Any) -> dict[str, Any]:
        uri = str(params.uri)
        return complete(ctx, await _route(gateway, routes.resource_server(uri), "resources/read", {"uri": uri}, ctx))

    async def subscribe(ctx: RequestContext, params: Any) -> dict[str, Any]:
        gateway.sessions.for_request(ctx)
        uri = str(params.uri)
        return await _route(gateway, routes.resource_server(uri), "resources/subscribe", {"uri": uri}, ctx)

    async def unsubscribe(ctx: RequestContext, params: Any) -> dict[str, Any]:
        uri = str(params.uri)
        return await _route(gateway, routes.resource_server(uri), "resources/unsubscribe", {"uri": uri}, ctx)

    async def completion(ctx: RequestContext, params: Any) -> dict[str, Any]:
        forwarded = params.model_dump(by_alias=True, exclude_none=True)
        ref = forwarded.get("ref", {})
        if ref.get("type") == "ref/prompt":
            routed = routes.prompt(ref.get("name", ""))
            forwarded["ref"] = {**ref, "name": routed.upstream_name}
            server = routed.server
        else:
            server = routes.resource_server(str(ref.get("uri", "")))
        return complete(ctx, await _route(gateway, server, "completion/complete", forwarded, ctx))

    return {
        "on_list_tools": list_tools,
        "on_call_tool": call_tool,
        "on_list_prompts": list_prompts,
        "on_get_prompt": get_prompt,
        "on_list_resources": list_resources,
        "on_list_resource_templates": list_templates,
        "on_read_resource": read_resource,
        "on_subscribe_resource": subscribe,
        "on_unsubscribe_resource": unsubscribe,
        "on_completion": completion,
    }


def _raw_json(gateway: Gateway, resolution: ToolResolution) -> Any:
    """The middleware that answers handshake-era tools/call and tools/list as raw JSON, unvalidated by the SDK."""
    modern = MODERN_VERSIONS

    async def raw_json(ctx: Any, call_next: Any) -> Any:
        if ctx.request is None and gateway.stdio_connection is None:
            # stdio has one connection; remember it for the direct calls (`server.direct`) taken off the pipe.
            gateway.stdio_connection = sdk.connection_of(ctx.session)
        # Handshake-era tools/call and tools/list skip the SDK's model validation
        # both ways: the upstream's JSON goes back as it was, and a large catalog
        # is not re-validated into models on every listing.
        if ctx.request_id is not None and ctx.protocol_version not in modern:
            if ctx.method == "tools/call":
                return await gateway.call_tool(ctx, ctx.params)
            if ctx.method == "tools/list" and gateway.sessions.initialized(ctx):
                return _tools_page(gateway, resolution, ctx, ctx.params or {})
        return await call_next(ctx)

    return raw_json


def sdk_server(gateway: Gateway, *, bus: Any, state_key: str | None) -> Any:
    """The SDK's low-level `Server` wired to a gateway (`build_server` builds the one a gateway serves through).

    Args:
        gateway: what the handlers serve.
        bus: the subscription bus 2026-07-28 clients listen on for list changes.
        state_key: the key that seals `requestState` (an ephemeral one when None).
    """
    import mcp_types as types
    from mcp.server.caching import CACHEABLE_METHODS, CacheHint
    from mcp.server.lowlevel import NotificationOptions, Server
    from mcp.server.subscriptions import ListenHandler

    from hintgate import __version__

    class _Server(Server[Any]):
        def create_initialization_options(self, notification_options: Any = None, *a: Any, **k: Any) -> Any:
            options = notification_options or NotificationOptions(True, True, True)
            return super().create_initialization_options(options, *a, **k)

        def get_capabilities(self, *a: Any, **k: Any) -> Any:
            # Extensions the upstreams offer come and go with them: asked at every discovery.
            self.extensions = {**gateway.tasks.extensions(), **resolution.extensions(), TRUST: {}}
            return super().get_capabilities(*a, **k)

    async def set_level(_ctx: Any, _params: Any) -> dict[str, Any]:
        return {}

    resolution = ToolResolution(gateway)
    handlers: dict[str, Any] = {**_handlers(gateway, resolution), "on_subscriptions_listen": ListenHandler(bus)}
    # The catalog changes live (overrides, upstream restarts): never fresh.
    never_fresh: dict[Any, CacheHint] = {method: CacheHint(ttl_ms=0, scope="private") for method in CACHEABLE_METHODS}
    server = _Server(
        NAME,
        version=__version__,
        title=NAME,
        description=DESCRIPTION,
        cache_hints=never_fresh,
        **handlers,
    )
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    task_params = task_params_model()
    for method, handler in gateway.tasks.handlers().items():
        server.add_request_handler(method, task_params, handler)

    async def resolve(ctx: Any, params: Any) -> dict[str, Any]:
        return await resolution.resolve(ctx, params.model_dump(by_alias=True, exclude_none=True))

    server.add_request_handler(RESOLVE, resolve_params_model(), resolve)
    # The SDK installs an OpenTelemetry middleware by default; a gateway on the
    # hot path of every call keeps only its own.
    # 2026-07-28 approvals travel in an InputRequiredResult whose requestState the SDK's
    # boundary seals (and verifies when the client answers), so it cannot be forged; it
    # and its cryptography load with the first request that carries or mints a state.
    boundary = LazyStateBoundary(state_key, audience="hintgate")
    server.middleware = [_raw_json(gateway, resolution), boundary]
    return server


# -- the transports: the routes of streamable HTTP (stdio: `server.front`) -----


def build_server(gateway: Gateway) -> Any:
    """The SDK's low-level `Server` a gateway serves through, built anew (with a new subscription bus)."""
    from mcp.server.subscriptions import InMemorySubscriptionBus

    gateway.broadcast.bus = InMemorySubscriptionBus()
    gateway.mcp_server = sdk_server(gateway, bus=gateway.broadcast.bus, state_key=gateway.state_key)
    return gateway.mcp_server


@asynccontextmanager
async def mcp_routes(gateway: Gateway, *, host: str = "127.0.0.1") -> AsyncIterator[list[Any]]:
    """The Starlette routes serving a gateway's MCP at `/mcp` (streamable HTTP) and `/mcp/NAME` (a view), with
    their session manager running."""
    from hintgate.server import http_fast  # the SDK's server side: loaded only when HTTP is served

    server = gateway.mcp_server or build_server(gateway)
    # The SDK ends a handshake-era session with no request in flight for this long; its id then answers 404.
    app = server.streamable_http_app(
        streamable_http_path="/mcp", host=host, session_idle_timeout=gateway.config.timeouts.session_idle
    )
    routes = [_guarded_route(route) for route in app.routes]
    routes = [_first_request_route(gateway, route, server) for route in routes]
    routes = [_id_checked_route(route, server) for route in routes]
    if http_fast.enabled(os.environ):
        # Outermost: a request it answers goes through no other layer (it does their work for such a request).
        routes = [_fast_route(gateway, route, server) for route in routes]
    routes += [_view_route(gateway, route) for route in routes if getattr(route, "path", None) == "/mcp"]
    async with server.session_manager.run():
        yield routes


def _view_route(gateway: Gateway, route: Any) -> Any:
    """`/mcp/NAME`: the `/mcp` endpoint serving the view NAME (a view no longer served answers 404)."""
    from starlette.routing import Route

    return Route("/mcp/{view}", endpoint=ViewEndpoint(route.app, lambda: gateway.discovery.views))


def _guarded_route(route: Any) -> Any:
    """The `/mcp` route with a client's leaving told in one line, not the SDK's tracebacks."""
    from starlette.routing import Route

    from hintgate.server.client_left import ClientLeftGuard

    if getattr(route, "path", None) != "/mcp":
        return route
    return Route("/mcp", endpoint=ClientLeftGuard(route.app))


def _first_request_route(gateway: Gateway, route: Any, server: Any) -> Any:
    """The `/mcp` route with a session that makes no request after `initialize` closed early."""
    from starlette.routing import Route

    from hintgate.server.first_request import FirstRequestDeadline

    if getattr(route, "path", None) != "/mcp":
        return route
    timeout = gateway.config.timeouts.session_first_request
    return Route("/mcp", endpoint=FirstRequestDeadline(route.app, server.session_manager, timeout))


def _id_checked_route(route: Any, server: Any) -> Any:
    """The `/mcp` route with a request whose id MCP refuses answered -32600, as on stdio."""
    from starlette.routing import Route

    from hintgate.server.request_ids import RequestIdGuard

    if getattr(route, "path", None) != "/mcp":
        return route
    return Route("/mcp", endpoint=RequestIdGuard(route.app, server.session_manager.max_request_body_size))


def _fast_route(gateway: Gateway, route: Any, server: Any) -> Any:
    """The `/mcp` route with the fast path in front of the id check, the first-request deadline and the SDK's
    endpoint (other routes as they are)."""
    from starlette.routing import Route

    if getattr(route, "path", None) != "/mcp":
        return route
    from hintgate.server.first_request import FirstRequestDeadline
    from hintgate.server.http_fast import HttpFastPath
    from hintgate.server.request_ids import RequestIdGuard

    guard = route.app
    deadline = guard.app if isinstance(guard, RequestIdGuard) else None
    seen = deadline.seen if isinstance(deadline, FirstRequestDeadline) else None
    fast = HttpFastPath(gateway, server, guard, seen=seen)
    gateway.http_fast = fast

    def input_schema(name: str) -> Any:
        """The input schema a listed tool advertises (the SDK checks `Mcp-Param-*` headers against it)."""
        entry = gateway.catalog.get(name)
        return entry.wire.get("inputSchema") if entry is not None else None

    server.get_tool_input_schema = input_schema
    return Route("/mcp", endpoint=fast)
