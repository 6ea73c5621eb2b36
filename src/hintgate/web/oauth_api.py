"""The REST API's OAuth logins: start one for a server that needs it, and follow it.

`POST /api/servers/{name}/login` starts the authorization code flow in the
gateway process (the redirect comes back to a loopback listener the gateway
opens for it) and answers with the authorization URL for the browser; the
dashboard's Connect button opens it. Once the browser comes back the server
connects. Tokens never appear in an answer: only the URL, the state of the
login and, when it failed, why.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from pydantic import Field

from hintgate.config.model import ServerConfig
from hintgate.errors import HintgateError
from hintgate.server.gateway import Gateway
from hintgate.sources.base import SourceState
from hintgate.sources.capabilities import LogsIn
from hintgate.sources.oauth import login, oauth_of
from hintgate.web.api import GatewayDep, Problem
from hintgate.web.api_model import ApiModel

__all__ = ["LOGIN_TIMEOUT", "router"]

logger = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["servers"])

LOGIN_TIMEOUT = 300.0
"""Seconds a login started from the dashboard waits for the browser to come back."""
_URL_WAIT = 30.0  # discovery and registration, before the URL is known
_LOGOUT_WAIT = 5.0


@dataclass
class _Login:
    url: asyncio.Future[str]
    task: asyncio.Task[None] | None = None
    started: float = field(default_factory=time.time)
    error: str | None = None

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()


class LoginStarted(ApiModel):
    """A login in progress: send the browser to `authorization_url`."""

    server: str
    authorization_url: str = Field(description="Where the user logs in and consents; it redirects back to hintgate.")
    expires_in: float = Field(description="Seconds the gateway waits for the browser to come back.")


class LoginProgress(ApiModel):
    """How the last login started from the API is going."""

    server: str
    state: Literal["none", "waiting", "done", "failed"]
    error: str | None = Field(None, description="Why it failed, when it did.")


_ERRORS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "No such server."},
    409: {"model": Problem, "description": "The server does not log in with OAuth, or logins cannot be kept."},
    502: {"model": Problem, "description": "Discovery or registration with the authorization server failed."},
}


def _logins(request: Request) -> dict[str, _Login]:
    logins: dict[str, _Login] | None = getattr(request.app.state, "oauth_logins", None)
    if logins is None:
        logins = request.app.state.oauth_logins = {}
    return logins


def _server(gateway: Gateway, name: str) -> ServerConfig:
    server = gateway.server_config(name)
    if server is None:
        if name in gateway.sources:
            raise HTTPException(409, f"{name!r} is not an MCP server: it has no OAuth login")
        raise HTTPException(404, f"no server named {name!r}")
    if oauth_of(server) is None:
        raise HTTPException(409, f"server {name!r} has no oauth block in its config: it does not log in")
    if gateway.credentials is None:
        raise HTTPException(409, "OAuth logins are kept in the store, and this gateway runs without one")
    return server


@router.post("/servers/{name}/login", response_model=LoginStarted, status_code=202, responses=_ERRORS)
async def start_login(request: Request, gateway: GatewayDep, name: str) -> LoginStarted:
    """Start logging in to a server behind OAuth; answers with the URL to open in the browser.

    A login already waiting for this server is abandoned for the new one.
    """
    server = _server(gateway, name)
    credentials = gateway.credentials
    assert credentials is not None
    logins = _logins(request)
    previous = logins.pop(name, None)
    if previous is not None and previous.task is not None and previous.running:
        previous.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await previous.task  # its loopback port is free again
    url: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def show(authorization_url: str) -> None:
        if not url.done():
            url.set_result(authorization_url)

    current = _Login(url)

    async def run() -> None:
        try:
            await login(server, credentials, show_url=show, timeout=LOGIN_TIMEOUT)
        except HintgateError as exc:
            current.error = str(exc)
            logger.warning("%s", exc)
            return
        source = gateway.server(name)
        if isinstance(source, LogsIn):
            source.logged_in()

    current.task = task = asyncio.create_task(run(), name=f"login:{name}")
    logins[name] = current
    waits: set[asyncio.Future[Any]] = {task, url}
    await asyncio.wait(waits, timeout=_URL_WAIT, return_when=asyncio.FIRST_COMPLETED)
    if not url.done():
        if not task.done():
            task.cancel()
            current.error = f"login to {name!r}: the authorization server was not found within {_URL_WAIT:g} s"
        raise HTTPException(502, current.error or f"login to {name!r} ended before it had a URL")
    return LoginStarted(server=name, authorization_url=url.result(), expires_in=LOGIN_TIMEOUT)


class LoggedOut(ApiModel):
    """What a logout did."""

    server: str
    forgotten: bool = Field(description="Whether a login was kept (false: there was nothing to forget).")


@router.delete("/servers/{name}/login", response_model=LoggedOut, responses=_ERRORS)
async def logout(request: Request, gateway: GatewayDep, name: str) -> LoggedOut:
    """Forget a server's tokens and registered client; the server goes to `needs_login` at once."""
    _server(gateway, name)
    credentials = gateway.credentials
    assert credentials is not None
    current = _logins(request).pop(name, None)
    if current is not None and current.task is not None and current.running:
        current.task.cancel()
    try:
        forgotten = await credentials.forget(name)
    except HintgateError as exc:
        raise HTTPException(503, str(exc)) from exc
    source = gateway.server(name)
    if isinstance(source, LogsIn):
        source.logged_out()
        # Answered once the server has left `up` (at most a few seconds), so a list read next shows it.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(_LOGOUT_WAIT):
                while source.status.state is SourceState.UP:
                    await asyncio.sleep(0.05)
    return LoggedOut(server=name, forgotten=forgotten)


@router.get("/servers/{name}/login", response_model=LoginProgress, responses=_ERRORS)
async def login_progress(request: Request, gateway: GatewayDep, name: str) -> LoginProgress:
    """How the last login started through the API for this server is going."""
    _server(gateway, name)
    current = _logins(request).get(name)
    if current is None:
        return LoginProgress(server=name, state="none", error=None)
    if current.running:
        return LoginProgress(server=name, state="waiting", error=None)
    if current.error is not None or (current.task is not None and current.task.cancelled()):
        return LoginProgress(server=name, state="failed", error=current.error or "the login was abandoned")
    return LoginProgress(server=name, state="done", error=None)
