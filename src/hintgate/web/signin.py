"""Signing people in to the dashboard with the identity provider: authorization code with PKCE.

With `identity.dashboardClient` set, `/login/identity` sends the browser to
the issuer's authorization endpoint (a public client: a fresh PKCE verifier,
`state` and `nonce` per attempt, the gateway's audience as the `resource`), and
`/login/identity/callback` trades the code for an access token, which must
verify as any bearer token does (`hintgate.web.identity.TokenVerifier`: this
issuer, this audience, in date). That token is then the dashboard's
`hintgate_person` cookie (HttpOnly, SameSite=Lax so that the redirect back
from the issuer carries it, Secure over https); the identity check verifies it
on every request, so the dashboard, the REST API it calls and the approvals
it answers act as that person until the token expires, and then the person
signs in again.

A sign-in is bound to the browser that started it. Its state, PKCE verifier,
start time and the page to return to live in that browser's
`hintgate_sign_in` cookie (HttpOnly, SameSite=Lax, `__Host-` and Secure over
https, `ATTEMPT_SECONDS`), and the callback takes only the `state` that
cookie holds: a callback URL of someone else's sign-in, handed to a victim,
signs the victim's browser in as nobody, never as its author (login CSRF).
The gateway keeps nothing per attempt, so no number of sign-ins started
elsewhere can push one out, and the callback may reach any replica.

A browser signed in as one person is never switched to another silently:
when the sign-in that comes back is someone else's, the page says who is
signed in and who would be, and only its button (a post from this page)
makes the switch (`SWITCH_PATH`); the other person's token waits for it in
a cookie of that path for `SWITCH_SECONDS`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import parse_qs, urlencode, urlsplit

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response

from hintgate.config.model import IdentityConfig
from hintgate.errors import IdentityError
from hintgate.policy.principal import Principal
from hintgate.web.auth import local_page
from hintgate.web.identity import PERSON_COOKIE, TokenVerifier, secure_endpoint
from hintgate.web.notice import notice

__all__ = [
    "ATTEMPT_SECONDS",
    "CALLBACK_PATH",
    "PENDING_COOKIE",
    "SIGN_IN_COOKIE",
    "SWITCH_PATH",
    "SWITCH_SECONDS",
    "redirect_uri",
    "router",
]

router = APIRouter(include_in_schema=False)

CALLBACK_PATH = "/login/identity/callback"
SWITCH_PATH = "/login/identity/switch"
ATTEMPT_SECONDS = 600.0
"""How long a sign-in may take between leaving for the issuer and coming back."""
SWITCH_SECONDS = 300
"""How long the question "switch to another person?" stays answerable."""
SIGN_IN_COOKIE = "hintgate_sign_in"
"""The browser's own sign-in under way (`__Host-hintgate_sign_in` over https)."""
PENDING_COOKIE = "hintgate_person_pending"
"""Another person's token, waiting for the switch to be confirmed (`__Host-` over https)."""
_SCOPES = "openid email profile groups"


@dataclass(frozen=True)
class _Attempt:
    """A sign-in under way, as the browser that started it holds it."""

    state: str
    verifier: str
    started: float
    next: str

    def encode(self) -> str:
        page = base64.urlsafe_b64encode(self.next.encode()).rstrip(b"=").decode()
        return f"{self.state}.{self.verifier}.{int(self.started)}.{page}"

    @classmethod
    def decode(cls, value: str | None) -> _Attempt | None:
        parts = (value or "").split(".")
        if len(parts) != 4 or not parts[0] or not parts[1] or not parts[2].isdigit():
            return None
        try:
            page = base64.urlsafe_b64decode(parts[3] + "=" * (-len(parts[3]) % 4)).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
        return cls(parts[0], parts[1], float(parts[2]), local_page(page))


def redirect_uri(audience: str) -> str:
    """Where the issuer sends the browser back: the callback at the audience's origin."""
    parts = urlsplit(audience)
    return f"{parts.scheme}://{parts.netloc}{CALLBACK_PATH}"


def _verifier(request: Request) -> TokenVerifier | None:
    found = getattr(request.app.state, "identity", None)
    return found if isinstance(found, TokenVerifier) and found.config.dashboard_client else None


def _secure(request: Request, config: IdentityConfig) -> bool:
    """Whether cookies go out Secure (and `__Host-` prefixed): over https, or for an https audience."""
    return request.url.scheme == "https" or urlsplit(config.audience).scheme == "https"


def _cookie(request: Request, config: IdentityConfig, name: str) -> str:
    return f"__Host-{name}" if _secure(request, config) else name


@router.get("/login/identity", response_model=None)
async def sign_in(request: Request, next: Annotated[str | None, Query(max_length=2000)] = None) -> Response:
    """Leave for the identity provider's sign-in, to come back to `next`, bound to this browser by its cookie."""
    verifier = _verifier(request)
    if verifier is None:
        return RedirectResponse("/login", status_code=303)
    config = verifier.config
    try:
        if not verifier.keys.discovery:
            await verifier.keys.refresh()
    except IdentityError as exc:
        return Response(f"The identity provider cannot be reached: {exc}", status_code=503)
    endpoint = verifier.keys.discovery.get("authorization_endpoint")
    if not isinstance(endpoint, str) or not secure_endpoint(endpoint):
        return Response("The identity provider's discovery document names no authorization endpoint.", 503)
    attempt = _Attempt(secrets.token_urlsafe(24), secrets.token_urlsafe(48), time.time(), local_page(next))
    challenge = base64.urlsafe_b64encode(hashlib.sha256(attempt.verifier.encode()).digest()).rstrip(b"=").decode()
    query = urlencode(
        {
            "response_type": "code",
            "client_id": config.dashboard_client,
            "redirect_uri": redirect_uri(config.audience),
            "scope": _SCOPES,
            "state": attempt.state,
            "nonce": secrets.token_urlsafe(16),
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "resource": config.audience,
        }
    )
    response = RedirectResponse(f"{endpoint}?{query}", status_code=303)
    response.set_cookie(
        _cookie(request, config, SIGN_IN_COOKIE),
        attempt.encode(),
        max_age=int(ATTEMPT_SECONDS),
        httponly=True,
        samesite="lax",  # the issuer's redirect back is a top-level navigation from its site
        secure=_secure(request, config),
        path="/",
    )
    return response


@router.get(CALLBACK_PATH, response_model=None)
async def callback(
    request: Request,
    code: Annotated[str, Query(max_length=4000)] = "",
    state: Annotated[str, Query(max_length=200)] = "",
    error: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """The issuer's answer: trade the code for the person's token, keep it as the cookie, go to their page.

    Taken only from the browser that started the sign-in (its cookie holds this `state`); a sign-in as
    another person than the one signed in here asks first.
    """
    verifier = _verifier(request)
    if verifier is None:
        return RedirectResponse("/login", status_code=303)
    config = verifier.config
    name = _cookie(request, config, SIGN_IN_COOKIE)
    held = _Attempt.decode(request.cookies.get(name))
    if held is None or not state or not hmac.compare_digest(held.state.encode(), state.encode()):
        # Someone else's sign-in (a callback URL handed to this browser), or one this browser no longer holds.
        return notice(
            "This sign-in did not start here",
            [
                "The link that brought you here finishes a sign-in that was not started in this browser, "
                "or this browser's own sign-in was replaced by a newer one. Nobody was signed in.",
                "If you meant to sign in to hintgate, start again from here.",
            ],
            400,
            links=[("Sign in", "/login/identity?" + urlencode({"next": held.next if held else "/"}))],
        )
    if time.time() - held.started > ATTEMPT_SECONDS:
        expired = RedirectResponse("/login?" + urlencode({"error": "the sign-in expired; sign in again"}), 303)
        expired.delete_cookie(name, path="/", secure=_secure(request, config), httponly=True, samesite="lax")
        return expired
    if error is not None or not code:
        return _spent(
            request, config, Response(f"The identity provider did not sign you in: {error or 'no code'}.", 401)
        )
    token_endpoint = verifier.keys.discovery.get("token_endpoint")
    if not isinstance(token_endpoint, str) or not secure_endpoint(token_endpoint):
        return Response("The identity provider's discovery document names no https token endpoint.", 503)
    import httpx2

    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri(config.audience),
        "client_id": config.dashboard_client or "",
        "code_verifier": held.verifier,
        "resource": config.audience,
    }
    try:
        async with httpx2.AsyncClient(timeout=10.0, follow_redirects=False) as client:
            answer = await client.post(token_endpoint, data=form, headers={"Accept": "application/json"})
        token = answer.json().get("access_token") if answer.status_code == 200 else None
    except (httpx2.HTTPError, ValueError):
        token = None
    if not isinstance(token, str):
        return _spent(request, config, Response("The identity provider did not give a token for this gateway.", 401))
    try:
        person = await verifier.principal(token)
    except IdentityError as exc:
        refused = Response(f"The identity provider's token does not open this gateway: {exc}", status_code=401)
        return _spent(request, config, refused)
    current = await _signed_in(request, verifier)
    if current is not None and current.key != person.key:
        asked = notice(
            f"Switch to {person.name}?",
            [
                f"This browser is signed in to hintgate as {current.name}.",
                f"The identity provider has just signed you in as {person.name}. What you do here from now on "
                f"(approvals, logins to servers) would be {person.name}'s, not {current.name}'s.",
            ],
            action=SWITCH_PATH,
            buttons=[(f"Switch to {person.name}", {"next": held.next})],
            links=[(f"Stay signed in as {current.name}", held.next)],
        )
        asked.set_cookie(
            _cookie(request, config, PENDING_COOKIE),
            token,
            max_age=SWITCH_SECONDS,
            httponly=True,
            samesite="strict",
            secure=_secure(request, config),
            path=SWITCH_PATH if not _secure(request, config) else "/",
        )
        return _spent(request, config, asked)
    return _spent(request, config, _signed_in_as(request, config, token, held.next))


@router.post(SWITCH_PATH, response_model=None)
async def switch(request: Request) -> Response:
    """The answer to "switch to another person?": that person's token, waiting in its cookie, becomes the cookie."""
    verifier = _verifier(request)
    if verifier is None:
        return RedirectResponse("/login", status_code=303)
    config = verifier.config
    form = parse_qs((await request.body()).decode("utf-8", "replace"), max_num_fields=4)
    next_page = local_page((form.get("next") or [""])[0])
    name = _cookie(request, config, PENDING_COOKIE)
    token = request.cookies.get(name, "")
    try:
        await verifier.principal(token)
    except IdentityError:
        return notice("Nothing to switch to", ["That sign-in has expired or was not made here: sign in again."], 400)
    response = _signed_in_as(request, config, token, next_page)
    path = SWITCH_PATH if not _secure(request, config) else "/"
    response.delete_cookie(name, path=path, secure=_secure(request, config), httponly=True, samesite="strict")
    return response


async def _signed_in(request: Request, verifier: TokenVerifier) -> Principal | None:
    """The person this browser is signed in as (its `hintgate_person` cookie, still valid), if any."""
    kept = request.cookies.get(PERSON_COOKIE, "")
    if kept.count(".") != 2:
        return None
    try:
        return await verifier.principal(kept)
    except IdentityError:
        return None  # expired or stale: nobody to ask about


def _signed_in_as(request: Request, config: IdentityConfig, token: str, next_page: str) -> Response:
    response = RedirectResponse(next_page, status_code=303)
    response.set_cookie(PERSON_COOKIE, token, httponly=True, samesite="lax", secure=_secure(request, config), path="/")
    return response


def _spent(request: Request, config: IdentityConfig, response: Response) -> Response:
    """`response`, with the browser's sign-in cookie removed: its state has been used."""
    secure = _secure(request, config)
    response.delete_cookie(
        _cookie(request, config, SIGN_IN_COOKIE), path="/", secure=secure, httponly=True, samesite="lax"
    )
    return response
