"""The ASGI application: MCP at /mcp, the REST API at /api, metrics at /metrics, the dashboard at /, on one port."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from hintgate import __version__
from hintgate.policy.roles import Roles
from hintgate.server.http_request import HttpRequest
from hintgate.web.auth import describe_security, security_middleware
from hintgate.web.identity import SessionOwners, TokenVerifier, identity_middleware
from hintgate.web.limits import BodyLimit, without_large_inputs
from hintgate.web.permissions import Refused, check
from hintgate.web.sign_in_links import SignInLinks

__all__ = ["create_app", "routers"]


Admit = Callable[[Request, str], Awaitable[ASGIApp | None]]
"""A middleware's own check of a POST to `/mcp` naming a session (the id given): the answer refusing it, or None."""

_PASSED = Response()
"""What a check's `call_next` gives back: the request may go on (never sent)."""
TELEMETRY_RECHECK = 1.0
"""Seconds between two asks of whether FastAPI's telemetry is on, while it is off (`_WebApp`)."""


async def _through(_request: Request) -> Response:
    return _PASSED


class _WebApp(FastAPI):
    """The web app, serving `/mcp` through its own middleware (every check) straight to the MCP endpoint.

    Starlette's error and exception layers, FastAPI's telemetry and body-limit
    layers and the router cost a call to `/mcp` more than its checks did, and do
    nothing for it: the endpoint answers every error itself, FastAPI's telemetry
    is off unless an OpenTelemetry provider is set, and no body limit is set on
    the app (the MCP SDK bounds `/mcp` bodies itself). A request to `/mcp` goes
    through the app's own middleware list (`user_middleware`: the body limit, the
    identity check, the session owners, the token, Host and Origin checks, in
    that order), built around the `/mcp` endpoint instead of the router. With
    FastAPI's telemetry on, or a body limit on the app, it goes the whole way.
    """

    mcp_endpoint: ASGIApp | None = None
    """The `/mcp` route's endpoint; None: `/mcp` goes through the router like any path."""
    pending_routes: Callable[[], None] | None = None
    """Adds the REST API's and the dashboard's routes (`routers`) on the first request not served straight to
    `/mcp` (`_include_routers`): a gateway serving MCP only never imports them. None once they are in."""
    _mcp_front: ASGIApp | None = None
    _mcp_admits: tuple[Admit, ...] | None = None
    _mcp_telemetry = False
    _mcp_telemetry_next = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/mcp" and (endpoint := self.mcp_endpoint) is not None:
            front = self._mcp_front
            if front is None and self._direct():
                front = self._mcp_front = self._front(endpoint)
            if front is not None and not self._telemetry_enabled():
                scope["app"] = self
                admits = self._mcp_admits
                if admits is not None and scope["method"] == "POST":
                    session_id = _named_session(scope["headers"])
                    if session_id is not None:
                        await self._admitted(admits, session_id, scope, receive, send)
                        return
                await front(scope, receive, send)
                return
        if (pending := self.pending_routes) is not None and scope["type"] != "lifespan":
            self.pending_routes = None
            pending()
        await super().__call__(scope, receive, send)

    async def _admitted(
        self, admits: tuple[Admit, ...], session_id: str, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """A POST to `/mcp` naming a session: each middleware's check in the middleware's order, on one request,
        then the endpoint (the first refusal answers instead)."""
        request = HttpRequest(scope, receive)
        for admit in admits:
            refusal = await admit(request, session_id)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.mcp_endpoint(scope, receive, send)  # type: ignore[misc]

    def _direct(self) -> bool:
        """Whether nothing but the app's own middleware stands before its routes (no body limit, no root path)."""
        return self.max_body_size is None and not self.root_path

    def _front(self, endpoint: ASGIApp) -> ASGIApp:
        """The app's own middleware, in its order, around `endpoint` (as Starlette builds it around the router).

        When every one of them can say on its own whether it refuses a POST to `/mcp` naming a session (an
        `admit` method), those checks are kept too (`_mcp_admits`): such a POST, a tool call, runs them one
        after the other rather than through the chain of middleware awaiting each other.
        """
        app = endpoint
        admits: list[Admit] | None = []
        for cls, args, kwargs in reversed(self.user_middleware):
            app = cls(app, *args, **kwargs)
            admit = getattr(app, "admit", None)
            if admits is not None:
                admits = [admit, *admits] if admit is not None else None
        self._mcp_admits = tuple(admits) if admits is not None else None
        return app

    def _telemetry_enabled(self) -> bool:
        """Whether FastAPI's own telemetry is on: once on, it stays on (a tracer provider is set once). While it
        is off, FastAPI is asked again at most every `TELEMETRY_RECHECK` seconds (its answer reads OpenTelemetry's
        three global providers: several µs a request)."""
        if not self._mcp_telemetry:
            now = time.monotonic()
            if now < self._mcp_telemetry_next:
                return False
            native = getattr(self, "_native_telemetry", None)
            self._mcp_telemetry = native is None or bool(native.enabled())
            self._mcp_telemetry_next = now + TELEMETRY_RECHECK
        return self._mcp_telemetry


def _session_owners(owners: dict[str, str]) -> Callable[[ASGIApp], SessionOwners]:
    """Builds `SessionOwners` around an app, every one of them with the same `owners` (a session opened through
    one is owned in the others)."""

    def build(app: ASGIApp) -> SessionOwners:
        guard = SessionOwners(app)
        guard.owners = owners
        return guard

    return build


class Checked:
    """ASGI middleware running an HTTP check (`check(request, call_next)`) without wrapping the response.

    Starlette's `BaseHTTPMiddleware` runs the app in a task and streams its
    response through memory streams, for every request: that was a large part
    of what a call to /mcp cost. The check only ever answers itself or lets the
    request through, so this runs it first, then the app as it is.
    """

    def __init__(
        self, app: ASGIApp, check: Callable[[Request, Callable[[Request], Awaitable[Response]]], Awaitable[Response]]
    ) -> None:
        self.app = app
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        answer = await self.check(HttpRequest(scope, receive), _through)
        if answer is _PASSED:
            await self.app(scope, receive, send)
        else:
            await answer(scope, receive, send)

    async def admit(self, request: Request, _session_id: str) -> ASGIApp | None:
        """The check's answer refusing `request`, or None when it may go on."""
        answer = await self.check(request, _through)
        return None if answer is _PASSED else answer


def _named_session(headers: Sequence[tuple[bytes, bytes]]) -> str | None:
    """The request's `Mcp-Session-Id` (the first, as every layer reads it), or None."""
    for name, value in headers:  # a loop, not a generator: this runs for every request
        if name == b"mcp-session-id":
            return value.decode("latin-1")
    return None


def routers() -> tuple[APIRouter, ...]:
    """Every router the app includes, in order: the only way a route gets in (tests walk them for permissions).

    Imported here, on first use: a gateway serving MCP only never loads the REST API or the dashboard.
    """
    from hintgate.web import (
        api,
        approvals_api,
        confirm_api,
        dashboard,
        me_api,
        oauth_api,
        person_logins,
        pins_api,
        registry_search,
        servers_api,
        signin,
    )

    return (
        api.router,
        me_api.router,
        servers_api.router,
        oauth_api.router,
        person_logins.router,
        person_logins.pages,
        confirm_api.router,
        approvals_api.router,
        pins_api.pins_router,
        signin.router,
        registry_search.router,
        dashboard.router,
    )


def _include_routers(app: FastAPI) -> None:
    """The REST API's and the dashboard's routes, then the static files, after the app's own."""
    from hintgate.web import dashboard

    for router in routers():
        app.include_router(router)
    dashboard.mount_static(app)


def create_app(
    gateway: Any,
    store: Any,
    *,
    mcp_routes: Sequence[Any] = (),
    token: str | None = None,
    loopback: bool | None = None,
    identity: TokenVerifier | None = None,
    registry_url: str | None = None,
) -> FastAPI:
    """Build the web app around a running gateway.

    Args:
        gateway: the running `Gateway`.
        store: its `Store`, or None when recording is off.
        mcp_routes: the MCP endpoint's routes (from `Gateway.mcp_routes`).
        token: the API token every request must carry, or None on loopback with `--no-require-token`.
        loopback: whether the gateway is bound to loopback (by default, whether no token is set).
        identity: verifies bearer tokens from the identity provider, when the config has an `identity` section.
        registry_url: the MCP registry the Add server form searches (the `registry_url` setting).
    """
    app = _WebApp(
        title="hintgate",
        version=__version__,
        description="The REST API of hintgate, an MCP gateway that makes tool annotations "
        "complete, explainable and enforced.",
        openapi_url="/api/openapi.json",
        docs_url="/api/docs",
        redoc_url=None,
        # Every route's permission, from one table (hintgate.web.permissions); a route not in it is refused.
        dependencies=[Depends(check)],
    )
    app.state.gateway = gateway
    app.state.store = store
    app.state.token = token
    app.state.identity = identity
    app.state.roles = identity.config.roles if identity is not None else Roles()
    app.state.registry_url = registry_url
    app.state.sign_in_links = SignInLinks()
    app.state.loopback = token is None if loopback is None else loopback  # what the sign-in page says of its reach
    app.add_middleware(Checked, check=security_middleware(token, loopback=loopback))
    if identity is not None:
        # Inside the identity check: it reads whom that check verified. One owner table for `/mcp` and the rest.
        app.add_middleware(_session_owners({}))
        # Before the token check, which takes the person it verified as signed in.
        app.add_middleware(Checked, check=identity_middleware(identity, token))
    app.add_middleware(BodyLimit)  # outermost: a body too large is refused before anything reads it

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # Say what was wrong and where, in words, beside the machine-readable list.
        errors = without_large_inputs(jsonable_encoder(exc.errors()))
        problems = [
            f"{'.'.join(str(p) for p in error.get('loc', ()) if p != 'body') or 'body'}: {error.get('msg')}"
            for error in errors
        ]
        return JSONResponse({"detail": "; ".join(problems), "errors": errors}, status_code=422)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        # A person in a browser gets a page saying what they may not do; programs get the JSON.
        path = request.scope["path"]
        if path.startswith("/api/") or path == "/metrics" or request.headers.get("hx-request"):
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        from hintgate.web import dashboard

        return dashboard.refusal_page(request, str(exc.detail))

    default_openapi = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe_security(default_openapi(), token=token is not None)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        # Prometheus text format; the security middleware guards it like /api.
        from hintgate.observers.metrics import CONTENT_TYPE

        return Response(gateway.metrics.render(), media_type=CONTENT_TYPE)

    app.pending_routes = lambda: _include_routers(app)
    # MCP first: every call to /mcp is matched against the first route rather than after every page.
    app.router.routes[0:0] = list(mcp_routes)
    app.mcp_endpoint = next((r.app for r in mcp_routes if getattr(r, "path", None) == "/mcp"), None)
    return app
