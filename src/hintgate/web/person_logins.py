"""A person's own login to a server that logs in per person (`oauth.perUser`).

`GET /login/upstream/{server}` is the page a person's call points them to (in
a URL-mode elicitation, or in the tool error's text). For the person signed in
(the dashboard's identity cookie, or a bearer token from the identity
provider) it starts the authorization code flow with PKCE against the server's
authorization server (discovery and dynamic registration as for the shared
login, `hintgate.sources.oauth.login`) and sends the browser there. The
redirect comes back to `/login/upstream-callback` on the gateway's own origin
(the origin of `identity.audience`), which takes it only from the same person
who started it: otherwise anyone could send a victim a link whose consent
would land the victim's upstream account on the sender's name. The tokens are
kept sealed for that person and that server only (`PersonVault`), and the
person's calls waiting for the login go on.

`GET /api/servers/{name}/login/mine` tells a person whether they are logged
in; `DELETE` there forgets their login and closes their connection.

A login is remembered in this process for `LOGIN_TIMEOUT` seconds: behind a
load balancer, the callback must reach the replica that started it (sticky
sessions), as for the dashboard's sign-in.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from hintgate.errors import HintgateError, OAuthLoginError
from hintgate.policy.principal import Principal, PrincipalKind, principal_of
from hintgate.server.gateway import Gateway
from hintgate.sources.mcp import McpUpstream
from hintgate.sources.oauth import login, login_state
from hintgate.sources.personal import LOGIN_PATH
from hintgate.web.api import GatewayDep, Problem

__all__ = ["CALLBACK_PATH", "LOGIN_TIMEOUT", "my_logins", "pages", "router"]

logger = logging.getLogger(__name__)

pages = APIRouter(include_in_schema=False)
router = APIRouter(prefix="/api", tags=["servers"])

CALLBACK_PATH = "/login/upstream-callback"
LOGIN_TIMEOUT = 300.0
"""Seconds a person's login waits for the browser to come back from the authorization server."""
_URL_WAIT = 30.0  # discovery and registration, before the authorization URL is known
_EXCHANGE_WAIT = 30.0  # the code traded for tokens, after the browser came back
_LOGINS_KEPT = 1024
_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hintgate: {title}</title></head>
<body><h1>{title}</h1><p>{text}</p></body></html>
"""


class _PageRedirect:
    """One person's login, waiting for its redirect to come back to the gateway's callback page."""

    def __init__(self, redirect_uri: str, person: Principal, server: str, waiting: dict[str, _PageRedirect]) -> None:
        self.redirect_uri = redirect_uri
        self.person = person
        self.server = server
        self._waiting = waiting
        self.result: asyncio.Future[dict[str, str]] = asyncio.get_running_loop().create_future()
        self.task: asyncio.Task[None] | None = None
        self.error: str | None = None

    def expect_state(self, state: str) -> None:
        while len(self._waiting) >= _LOGINS_KEPT:
            oldest = self._waiting.pop(next(iter(self._waiting)))
            if oldest.task is not None:
                oldest.task.cancel()
        self._waiting[state] = self

    async def wait(self, timeout: float) -> dict[str, str]:
        try:
            return await asyncio.wait_for(asyncio.shield(self.result), timeout)
        except TimeoutError:
            raise OAuthLoginError(
                f"login to {self.server!r}: the browser did not come back within {timeout:g} s"
            ) from None


def _waiting(request: Request) -> dict[str, _PageRedirect]:
    state = request.app.state
    if not hasattr(state, "person_logins"):
        state.person_logins = {}
    waiting: dict[str, _PageRedirect] = state.person_logins
    return waiting


def _page(title: str, text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(_PAGE.format(title=html.escape(title), text=html.escape(text)), status_code=status)


def _upstream(gateway: Gateway, name: str) -> McpUpstream:
    source = gateway.sources.get(name)
    if not isinstance(source, McpUpstream) or source.personal is None:
        raise HTTPException(404, f"no server named {name!r} logs in per person")
    if gateway.credentials is None:
        raise HTTPException(409, "logins are kept in the store, and this gateway runs without one")
    return source


def _person(request: Request) -> Principal | None:
    """The person signed in (by the dashboard's cookie or a bearer token from the identity provider), if any."""
    principal = principal_of(request.scope)
    return principal if principal is not None and principal.kind is PrincipalKind.USER else None


async def my_logins(request: Request, gateway: Gateway) -> dict[str, bool]:
    """Whether the signed-in person is logged in to each server that logs in per person; empty without one."""
    person = _person(request)
    credentials = gateway.credentials
    if person is None or credentials is None:
        return {}
    mine: dict[str, bool] = {}
    for name, source in gateway.sources.items():
        if isinstance(source, McpUpstream) and source.personal is not None:
            mine[name] = (await login_state(source.config, credentials.person(person.key))).logged_in
    return mine


@pages.get(LOGIN_PATH + "/{name}", response_model=None)
async def start(request: Request, gateway: GatewayDep, name: str) -> Response:
    """Log the signed-in person in to a server that logs in per person: off to its authorization server."""
    identity = gateway.config.identity
    if identity is None:
        return _page("No people here", "This gateway has no identity section: nobody logs in per person.", 404)
    person = _person(request)
    if person is None:
        here = request.url.path
        if getattr(getattr(request.app.state, "identity", None), "config", None) is not None and (
            identity.dashboard_client
        ):
            return RedirectResponse("/login/identity?" + urlencode({"next": here}), status_code=303)
        return _page(
            "Sign in first",
            "Logging in to a server is for a person signed in with the identity provider; sign in to the dashboard.",
            401,
        )
    try:
        source = _upstream(gateway, name)
    except HTTPException as exc:
        return _page("Nothing to log in to", str(exc.detail), exc.status_code)
    credentials = gateway.credentials
    assert credentials is not None
    origin = urlsplit(identity.audience)
    redirect = _PageRedirect(f"{origin.scheme}://{origin.netloc}{CALLBACK_PATH}", person, name, _waiting(request))
    vault = credentials.person(person.key, person.name)
    url: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def show(authorization_url: str) -> None:
        if not url.done():
            url.set_result(authorization_url)

    async def run() -> None:
        try:
            await login(source.config, vault, show_url=show, timeout=LOGIN_TIMEOUT, redirect=redirect)
        except HintgateError as exc:
            redirect.error = str(exc)
            logger.warning("%s", exc)
            return
        logger.info("%s logged in to %s", person.name, name)
        source.person_logged_in(person.key)

    redirect.task = task = asyncio.create_task(run(), name=f"person-login:{name}")
    waits: set[asyncio.Future[Any]] = {task, url}
    await asyncio.wait(waits, timeout=_URL_WAIT, return_when=asyncio.FIRST_COMPLETED)
    if not url.done():
        task.cancel()
        why = redirect.error or f"its authorization server was not found within {_URL_WAIT:g} s"
        return _page("The login could not start", f"login to {name!r}: {why}", 502)
    return RedirectResponse(url.result(), status_code=303)


@pages.get(CALLBACK_PATH, response_model=None)
async def callback(
    request: Request,
    state: Annotated[str, Query(max_length=200)] = "",
    code: Annotated[str, Query(max_length=4000)] = "",
    error: Annotated[str | None, Query(max_length=200)] = None,
    iss: Annotated[str | None, Query(max_length=2000)] = None,
) -> Response:
    """The authorization server's answer: taken only from the person who started that login."""
    waiting = _waiting(request)
    redirect = waiting.get(state) if state else None
    if redirect is None or redirect.task is None or redirect.task.done():
        return _page(
            "This login has ended", "It was finished, abandoned or expired; start again from your client.", 400
        )
    signed_in = _person(request)
    if signed_in is None or signed_in.key != redirect.person.key:
        # Someone else's browser (a link sent to a victim): the login stays waiting for its own person.
        return _page("Not your login", "This login was started by another person; sign in as yourself.", 403)
    del waiting[state]
    if error is not None or not code:
        redirect.result.set_exception(
            OAuthLoginError(f"login to {redirect.server!r}: the authorization server said {error or 'no code'}")
        )
    else:
        query = {"code": code, "state": state}
        if iss is not None:
            query["iss"] = iss
        redirect.result.set_result(query)
    with contextlib.suppress(TimeoutError, asyncio.CancelledError):
        await asyncio.wait_for(asyncio.shield(redirect.task), _EXCHANGE_WAIT)
    if redirect.error is not None or not redirect.task.done():
        return _page("The login failed", redirect.error or "the token exchange did not finish", 502)
    return _page(
        f"Logged in to {redirect.server}",
        f"{redirect.person.name} is logged in to {redirect.server}; return to your client.",
    )


class PersonLogin(BaseModel):
    """The signed-in person's own login to a server that logs in per person (never a token)."""

    server: str
    person: str
    logged_in: bool
    reason: str | None = Field(description="Why a login is needed, when it is.")
    expires_at: float | None = Field(description="When the access token expires, if it said (Unix time).")
    login_page: str | None = Field(description="Where the person logs in.")


_MINE_ERRORS: dict[int | str, dict[str, Any]] = {
    403: {
        "model": Problem,
        "description": "No person signed in with the identity provider.",
    },
    404: {"model": Problem, "description": "No server of that name logs in per person."},
    409: {"model": Problem, "description": "The gateway runs without a store, where logins are kept."},
}


def _api_person(request: Request) -> Principal:
    person = _person(request)
    if person is None:
        raise HTTPException(403, "a login per person is for a person signed in with the identity provider")
    return person


@router.get("/servers/{name}/login/mine", response_model=PersonLogin, responses=_MINE_ERRORS)
async def my_login(request: Request, gateway: GatewayDep, name: str) -> PersonLogin:
    """Whether the signed-in person is logged in to a server that logs in per person."""
    person = _api_person(request)
    source = _upstream(gateway, name)
    assert gateway.credentials is not None
    state = await login_state(source.config, gateway.credentials.person(person.key))
    return PersonLogin(
        server=name,
        person=person.name,
        logged_in=state.logged_in,
        reason=state.reason,
        expires_at=state.expires_at,
        login_page=source.login_page,
    )


@router.delete(
    "/servers/{name}/login/mine",
    response_model=PersonLogin,
    responses={**_MINE_ERRORS, 503: {"model": Problem, "description": "The store could not forget the login."}},
)
async def forget_my_login(request: Request, gateway: GatewayDep, name: str) -> PersonLogin:
    """Forget the signed-in person's login to a server; their connection to it closes now."""
    person = _api_person(request)
    source = _upstream(gateway, name)
    assert gateway.credentials is not None
    try:
        await gateway.credentials.person(person.key).forget(name)
    except HintgateError as exc:
        raise HTTPException(503, str(exc)) from exc
    source.person_logged_out(person.key)
    return PersonLogin(
        server=name,
        person=person.name,
        logged_in=False,
        reason="logged out",
        expires_at=None,
        login_page=source.login_page,
    )
