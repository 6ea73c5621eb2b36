"""A person's own login to a server that logs in per person (`oauth.perUser`).

`GET /login/upstream/{server}` is the page a person's call points them to (in
a URL-mode elicitation, or in the tool error's text). It says who is signed in
to the gateway (the dashboard's identity cookie, or a bearer token from the
identity provider) and what logging in will do, before anyone is sent to the
server's consent: a browser signed in as someone else (a sign-in someone slipped
it) would otherwise keep the person's upstream account under that other name.
Its button (`POST` there) starts the authorization code flow with PKCE against
the server's authorization server (discovery and dynamic registration as for
the shared login, `hintgate.sources.oauth.login`) and sends the browser there.

The redirect comes back to `/login/upstream-callback` on the gateway's own
origin (the origin of `identity.audience`), which takes it only from the
browser that started the login (a nonce in its `hintgate_upstream_login`
cookie, whose hash the login keeps) and only while the same person is signed
in there: otherwise anyone could send a victim a link whose consent would
land the victim's upstream account on the sender's name. The tokens are kept
sealed for that person and that server only (`PersonVault`), and the
person's calls waiting for the login go on.

A login runs on the replica where it started; it waits in the store
(`hintgate.store.login_waits`) so that the redirect may come back through any
replica, which hands it over. At most `PER_PERSON` logins of one person wait
at a time (a new one pushes out their own oldest) and `LOGINS_KEPT` in all (a
new one pushes out the oldest of whoever has the most waiting), so nobody's
burst of logins pushes out another person's.

`GET /api/servers/{name}/login/mine` tells a person whether they are logged
in; `DELETE` there forgets their login and closes their connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field

from hintgate.config.model import IdentityConfig
from hintgate.errors import HintgateError, OAuthLoginError
from hintgate.policy.principal import Principal, PrincipalKind, principal_of
from hintgate.server.gateway import Gateway
from hintgate.sources.capabilities import LogsIn
from hintgate.sources.oauth import LoginState, login, login_state
from hintgate.sources.personal import LOGIN_PATH
from hintgate.web.api import GatewayDep, Problem
from hintgate.web.notice import notice

if TYPE_CHECKING:  # the store is imported only when recording is on
    from hintgate.store.login_waits import LoginWaits

__all__ = [
    "CALLBACK_PATH",
    "LOGINS_KEPT",
    "LOGIN_COOKIE",
    "LOGIN_TIMEOUT",
    "PER_PERSON",
    "my_logins",
    "pages",
    "router",
]

logger = logging.getLogger(__name__)

pages = APIRouter(include_in_schema=False)
router = APIRouter(prefix="/api", tags=["servers"])

CALLBACK_PATH = "/login/upstream-callback"
LOGIN_TIMEOUT = 300.0
"""Seconds a person's login waits for the browser to come back from the authorization server."""
LOGIN_COOKIE = "hintgate_upstream_login"
"""The browser's own logins under way: `STATE.NONCE` pairs (`__Host-` prefixed over https)."""
PER_PERSON = 4
"""Logins one person may have waiting at once; a new one pushes out their own oldest."""
LOGINS_KEPT = 1024
"""Logins waiting on one replica at once; a new one pushes out the oldest of whoever has the most."""
_URL_WAIT = 30.0  # discovery and registration, before the authorization URL is known
_EXCHANGE_WAIT = 30.0  # the code traded for tokens, after the browser came back
_POLL = 0.5  # seconds between looks at the store for a redirect another replica took, or its outcome


def _future() -> asyncio.Future[dict[str, str]]:
    return asyncio.get_running_loop().create_future()


@dataclass(eq=False)
class _PageRedirect:
    """One person's login, waiting for its redirect to come back to the gateway's callback page (any replica)."""

    redirect_uri: str
    person: Principal
    server: str
    _logins: _Waiting
    _: KW_ONLY
    browser: str
    store: LoginWaits | None
    replica: str
    state: str | None = field(default=None, init=False)
    result: asyncio.Future[dict[str, str]] = field(default_factory=_future, init=False)
    task: asyncio.Task[None] | None = field(default=None, init=False)
    error: str | None = field(default=None, init=False)

    def expect_state(self, state: str) -> None:
        self.state = state
        self._logins.add(state, self)

    async def kept(self) -> None:
        """Write the login to the store, so that its redirect may come back through any replica."""
        if self.store is not None and self.state is not None:
            expires = datetime.now(UTC) + timedelta(seconds=LOGIN_TIMEOUT + _EXCHANGE_WAIT)
            await self.store.start(
                self.state,
                server=self.server,
                person=self.person.key,
                browser=self.browser,
                replica=self.replica,
                expires_at=expires,
            )

    async def wait(self, timeout: float) -> dict[str, str]:
        """The redirect's parameters: handed over here, or taken by another replica and found in the store."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            if self.store is not None and self.state is not None and not self.result.done():
                with contextlib.suppress(HintgateError):  # the store unreachable a moment: look again
                    found = await self.store.answered(self.state)
                    if found is not None and not self.result.done():
                        self._answer(found)
            left = deadline - loop.time()
            if left <= 0:
                raise OAuthLoginError(f"login to {self.server!r}: the browser did not come back within {timeout:g} s")
            try:
                async with asyncio.timeout(min(_POLL, left)):
                    return await asyncio.shield(self.result)
            except TimeoutError:
                continue

    def _answer(self, query: Mapping[str, str]) -> None:
        """Wake the login with the redirect's parameters (or its error)."""
        if "error" in query:
            self.result.set_exception(
                OAuthLoginError(f"login to {self.server!r}: the authorization server said {query['error']}")
            )
        else:
            self.result.set_result(dict(query))


class _Waiting:
    """The logins waiting on this replica, by state, bounded per person and in all (`PER_PERSON`, `LOGINS_KEPT`)."""

    def __init__(self) -> None:
        self.by_state: dict[str, _PageRedirect] = {}

    def add(self, state: str, login: _PageRedirect) -> None:
        mine = [s for s, held in self.by_state.items() if held.person.key == login.person.key]
        while len(mine) >= PER_PERSON:
            self._drop(mine.pop(0))
        while len(self.by_state) >= LOGINS_KEPT:
            # Whoever has the most waiting gives up their oldest: one person's burst never empties the others'.
            counts: dict[str, int] = {}
            for held in self.by_state.values():
                counts[held.person.key] = counts.get(held.person.key, 0) + 1
            most = max(counts.values())
            self._drop(next(s for s, held in self.by_state.items() if counts[held.person.key] == most))
        self.by_state[state] = login

    def _drop(self, state: str) -> None:
        dropped = self.by_state.pop(state)
        if dropped.task is not None:
            dropped.task.cancel()

    def get(self, state: str) -> _PageRedirect | None:
        return self.by_state.get(state)

    def discard(self, state: str | None, login: _PageRedirect) -> None:
        if state is not None and self.by_state.get(state) is login:
            del self.by_state[state]


def _waiting(request: Request) -> _Waiting:
    state = request.app.state
    if not hasattr(state, "person_logins"):
        state.person_logins = _Waiting()
    waiting: _Waiting = state.person_logins
    return waiting


def _page(title: str, text: str, status: int = 200) -> Response:
    return notice(title, [text], status)


def _upstream(gateway: Gateway, name: str) -> LogsIn:
    source = gateway.server(name)
    if not isinstance(source, LogsIn) or not source.logs_in_per_person:
        raise HTTPException(404, f"no server named {name!r} logs in per person")
    if gateway.credentials is None:
        raise HTTPException(409, "logins are kept in the store, and this gateway runs without one")
    return source


def _login_of(request: Request, gateway: GatewayDep, name: str) -> tuple[IdentityConfig, Principal, LogsIn] | Response:
    """Who would log in to server `name`, and the server; else the page saying why not (no people, not signed in,
    no such server)."""
    identity = gateway.identity
    if identity is None:
        return _page("No people here", "This gateway has no identity section: nobody logs in per person.", 404)
    person = _person(request)
    if person is None:
        return _sign_in_first(request, gateway)
    try:
        source = _upstream(gateway, name)
    except HTTPException as exc:
        return _page("Nothing to log in to", str(exc.detail), exc.status_code)
    return identity, person, source


_LoginOf = Annotated[tuple[IdentityConfig, Principal, LogsIn] | Response, Depends(_login_of)]
"""A login page's first step (`_login_of`): who would log in to the server the path names, or the page saying why
not, which the page returns as it is."""


def _person(request: Request) -> Principal | None:
    """The person signed in (by the dashboard's cookie or a bearer token from the identity provider), if any."""
    principal = principal_of(request.scope)
    return principal if principal is not None and principal.kind is PrincipalKind.USER else None


def _secure(request: Request, gateway: Gateway) -> bool:
    identity = gateway.identity
    audience = identity.audience if identity is not None else ""
    return request.url.scheme == "https" or urlsplit(audience).scheme == "https"


def _cookie_name(request: Request, gateway: Gateway) -> str:
    return f"__Host-{LOGIN_COOKIE}" if _secure(request, gateway) else LOGIN_COOKIE


def _browser_logins(request: Request, gateway: Gateway) -> dict[str, str]:
    """The logins this browser started and holds the nonce of: state -> nonce, newest first."""
    held: dict[str, str] = {}
    for pair in request.cookies.get(_cookie_name(request, gateway), "").split("~"):
        state, dot, nonce = pair.partition(".")
        if dot and state and nonce:
            held[state] = nonce
    return held


def _set_browser_logins(response: Response, request: Request, gateway: Gateway, held: Mapping[str, str]) -> None:
    value = "~".join(f"{state}.{nonce}" for state, nonce in list(held.items())[:PER_PERSON])
    name, secure = _cookie_name(request, gateway), _secure(request, gateway)
    if not value:
        response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="lax")
        return
    response.set_cookie(name, value, max_age=int(LOGIN_TIMEOUT), httponly=True, samesite="lax", secure=secure, path="/")


def _digest(nonce: str) -> str:
    return hashlib.sha256(nonce.encode()).hexdigest()


async def my_logins(request: Request, gateway: Gateway) -> dict[str, bool]:
    """Whether the signed-in person is logged in to each server that logs in per person; empty without one."""
    person = _person(request)
    credentials = gateway.credentials
    if person is None or credentials is None:
        return {}
    mine: dict[str, bool] = {}
    for name, source in gateway.sources.items():
        if isinstance(source, LogsIn) and source.logs_in_per_person:
            mine[name] = (await login_state(source.config, credentials.person(person.key))).logged_in
    return mine


def _sign_in_first(request: Request, gateway: Gateway) -> Response:
    identity = gateway.identity
    here = request.url.path
    if identity is not None and identity.dashboard_client and getattr(request.app.state, "identity", None) is not None:
        return RedirectResponse("/login/identity?" + urlencode({"next": here}), status_code=303)
    return _page(
        "Sign in first",
        "Logging in to a server is for a person signed in with the identity provider; sign in to the dashboard.",
        401,
    )


@pages.get(LOGIN_PATH + "/{name}", response_model=None)
async def ask(name: str, found: _LoginOf) -> Response:
    """Say who is signed in and what logging in to the server does; its button starts the login."""
    if isinstance(found, Response):
        return found
    identity, person, _ = found
    here = f"{LOGIN_PATH}/{name}"
    lines = [
        f"You are signed in to hintgate as {person.name}.",
        f"Logging in to {name} keeps your {name} account for {person.name}: every call {person.name} makes to "
        f"{name} through hintgate will use it.",
        f"If you are not {person.name}, do not go on: sign in as yourself first.",
    ]
    sign_in_again = [("Sign in as someone else", "/login/identity?" + urlencode({"next": here}))]
    return notice(
        f"Log in to {name} as {person.name}?",
        lines,
        action=here,
        buttons=[(f"Log in to {name} as {person.name}", {})],
        links=sign_in_again if identity.dashboard_client else [],
    )


@pages.post(LOGIN_PATH + "/{name}", response_model=None)
async def start(request: Request, gateway: GatewayDep, name: str, found: _LoginOf) -> Response:
    """Log the signed-in person in to a server that logs in per person: off to its authorization server."""
    if isinstance(found, Response):
        return found
    identity, person, source = found
    credentials = gateway.credentials
    assert credentials is not None
    origin = urlsplit(identity.audience)
    nonce = secrets.token_urlsafe(32)
    store = gateway.store
    waiting = _waiting(request)
    redirect = _PageRedirect(
        f"{origin.scheme}://{origin.netloc}{CALLBACK_PATH}",
        person,
        name,
        waiting,
        browser=_digest(nonce),
        store=store.login_waits if store is not None else None,
        replica=store.replica if store is not None else "",
    )
    vault = credentials.person(person.key, person.name)
    url: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def show(authorization_url: str) -> None:
        await redirect.kept()
        if not url.done():
            url.set_result(authorization_url)

    async def run() -> None:
        try:
            await login(source.config, vault, show_url=show, timeout=LOGIN_TIMEOUT, redirect=redirect)
        except HintgateError as exc:
            redirect.error = str(exc)
            logger.warning("%s", exc)
            await _finish(redirect, "failed", str(exc))
            return
        except asyncio.CancelledError:
            # Pushed out by newer logins, or given up: a redirect that still comes back is told so at once.
            _ENDINGS.add(ending := asyncio.create_task(_finish(redirect, "failed", "a newer login took its place")))
            ending.add_done_callback(_ENDINGS.discard)
            raise
        finally:
            waiting.discard(redirect.state, redirect)
        logger.info("%s logged in to %s", person.name, name)
        source.person_logged_in(person.key)
        await _finish(redirect, "done")

    redirect.task = task = asyncio.create_task(run(), name=f"person-login:{name}")
    waits: set[asyncio.Future[Any]] = {task, url}
    await asyncio.wait(waits, timeout=_URL_WAIT, return_when=asyncio.FIRST_COMPLETED)
    if not url.done() or redirect.state is None:
        task.cancel()
        why = redirect.error or f"its authorization server was not found within {_URL_WAIT:g} s"
        return _page("The login could not start", f"login to {name!r}: {why}", 502)
    response = RedirectResponse(url.result(), status_code=303)
    _set_browser_logins(response, request, gateway, {redirect.state: nonce, **_browser_logins(request, gateway)})
    return response


_ENDINGS: set[asyncio.Task[None]] = set()
"""Outcomes being written for logins cancelled meanwhile (held here until written)."""


async def _finish(redirect: _PageRedirect, outcome: str, detail: str | None = None) -> None:
    if redirect.store is not None and redirect.state is not None:
        with contextlib.suppress(HintgateError):
            await redirect.store.finish(redirect.state, outcome, detail)


@pages.get(CALLBACK_PATH, response_model=None)
async def callback(
    request: Request,
    gateway: GatewayDep,
    state: Annotated[str, Query(max_length=200)] = "",
    code: Annotated[str, Query(max_length=4000)] = "",
    error: Annotated[str | None, Query(max_length=200)] = None,
    iss: Annotated[str | None, Query(max_length=2000)] = None,
) -> Response:
    """The authorization server's answer: taken only from the browser and the person that started that login."""
    local = _waiting(request).get(state) if state else None
    store = gateway.store.login_waits if gateway.store is not None else None
    row = await store.get(state) if store is not None and state else None
    if local is not None and (local.task is None or local.task.done()):
        local = None
    ended = _page("This login has ended", "It was finished, abandoned or expired; start again from your client.", 400)
    here = gateway.store.replica if gateway.store is not None else None
    if local is None and (
        row is None or row["outcome"] is not None or row["answer"] is not None or row["replica"] == here
    ):
        return ended  # over, taken, or held by this replica, which no longer waits for it
    person_key = local.person.key if local is not None else str(row["person"]) if row is not None else ""
    browser = local.browser if local is not None else str(row["browser"]) if row is not None else ""
    server = local.server if local is not None else str(row["server"]) if row is not None else ""
    signed_in = _person(request)
    if signed_in is None or signed_in.key != person_key:
        # Someone else's browser (a link sent to a victim): the login stays waiting for its own person.
        return _page("Not your login", "This login was started by another person; sign in as yourself.", 403)
    nonce = _browser_logins(request, gateway).get(state, "")
    if not nonce or not hmac.compare_digest(_digest(nonce), browser):
        return _page(
            "This login did not start here",
            "The link that brought you here finishes a login started in another browser: nothing was kept. "
            "Start the login again from this browser.",
            403,
        )
    query = {"code": code, "state": state} if error is None and code else {"error": error or "no code"}
    if iss is not None and "code" in query:
        query["iss"] = iss
    if store is not None:
        with contextlib.suppress(HintgateError):
            if not await store.answer(state, query):
                return ended  # another redirect with this state got there first
    if local is not None and not local.result.done():
        local._answer(query)
    outcome, detail = await _outcome(local, store, state)
    response = (
        _page(f"Logged in to {server}", f"{signed_in.name} is logged in to {server}; return to your client.")
        if outcome == "done"
        else _page("The login failed", detail or "the token exchange did not finish", 502)
    )
    held = _browser_logins(request, gateway)
    held.pop(state, None)
    _set_browser_logins(response, request, gateway, held)
    return response


async def _outcome(local: _PageRedirect | None, store: LoginWaits | None, state: str) -> tuple[str, str | None]:
    """How the login the redirect was handed to ended: here, or on the replica holding it (through the store)."""
    if local is not None and local.task is not None:
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            async with asyncio.timeout(_EXCHANGE_WAIT):
                await asyncio.shield(local.task)
        if local.error is None and local.task.done():
            return "done", None
        return "failed", local.error
    loop = asyncio.get_running_loop()
    deadline = loop.time() + _EXCHANGE_WAIT + _POLL
    while store is not None and loop.time() < deadline:
        with contextlib.suppress(HintgateError):
            row = await store.get(state)
            if row is None:
                return "failed", "the login was abandoned"
            if row["outcome"] is not None:
                return str(row["outcome"]), row["detail"]
        await asyncio.sleep(_POLL)
    return "failed", "the replica holding the login did not finish it in time"


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


def _login_out(name: str, person: Principal, source: LogsIn, state: LoginState) -> PersonLogin:
    """The API's view of `person`'s login to server `name` (never a token)."""
    return PersonLogin(
        server=name,
        person=person.name,
        logged_in=state.logged_in,
        reason=state.reason,
        expires_at=state.expires_at,
        login_page=source.login_page,
    )


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
    return _login_out(name, person, source, await login_state(source.config, gateway.credentials.person(person.key)))


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
    return _login_out(name, person, source, LoginState(False, reason="logged out"))
