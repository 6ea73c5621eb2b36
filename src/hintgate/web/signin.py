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

An attempt is remembered in this process for `ATTEMPT_SECONDS`: behind a load
balancer, the callback must reach the replica that started it (sticky
sessions), or the person is asked to sign in again.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response

from hintgate.errors import IdentityError
from hintgate.web.identity import PERSON_COOKIE, TokenVerifier, secure_endpoint

__all__ = ["ATTEMPT_SECONDS", "CALLBACK_PATH", "redirect_uri", "router"]

router = APIRouter(include_in_schema=False)

CALLBACK_PATH = "/login/identity/callback"
ATTEMPT_SECONDS = 600.0
"""How long a sign-in may take between leaving for the issuer and coming back."""
_ATTEMPTS_KEPT = 1024
_SCOPES = "openid email profile groups"


def redirect_uri(audience: str) -> str:
    """Where the issuer sends the browser back: the callback at the audience's origin."""
    parts = urlsplit(audience)
    return f"{parts.scheme}://{parts.netloc}{CALLBACK_PATH}"


def _verifier(request: Request) -> TokenVerifier | None:
    found = getattr(request.app.state, "identity", None)
    return found if isinstance(found, TokenVerifier) and found.config.dashboard_client else None


def _attempts(request: Request) -> dict[str, tuple[str, str, float]]:
    """Sign-ins under way in this process: state -> (PKCE verifier, page to return to, when it started)."""
    state = request.app.state
    if not hasattr(state, "sign_ins"):
        state.sign_ins = {}
    attempts: dict[str, tuple[str, str, float]] = state.sign_ins
    return attempts


def _local(path: str | None) -> str:
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


@router.get("/login/identity", response_model=None)
async def sign_in(request: Request, next: Annotated[str | None, Query(max_length=2000)] = None) -> Response:
    """Leave for the identity provider's sign-in, to come back to `next`."""
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
    attempts = _attempts(request)
    now = time.monotonic()
    for stale in [s for s, (_, _, at) in attempts.items() if now - at > ATTEMPT_SECONDS]:
        del attempts[stale]
    while len(attempts) >= _ATTEMPTS_KEPT:
        del attempts[next_key(attempts)]
    state, code_verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    attempts[state] = (code_verifier, _local(next), now)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(code_verifier.encode()).digest()).rstrip(b"=").decode()
    query = urlencode(
        {
            "response_type": "code",
            "client_id": config.dashboard_client,
            "redirect_uri": redirect_uri(config.audience),
            "scope": _SCOPES,
            "state": state,
            "nonce": secrets.token_urlsafe(16),
            "code_challenge": challenge,
            "code_challenge_method": "S256",
            "resource": config.audience,
        }
    )
    return RedirectResponse(f"{endpoint}?{query}", status_code=303)


def next_key(attempts: dict[str, Any]) -> str:
    """The oldest attempt's key."""
    return next(iter(attempts))


@router.get(CALLBACK_PATH, response_model=None)
async def callback(
    request: Request,
    code: Annotated[str, Query(max_length=4000)] = "",
    state: Annotated[str, Query(max_length=200)] = "",
    error: Annotated[str | None, Query(max_length=200)] = None,
) -> Response:
    """The issuer's answer: trade the code for the person's token, keep it as the cookie, go to their page."""
    verifier = _verifier(request)
    attempt = _attempts(request).pop(state, None) if state else None
    if verifier is None or attempt is None or time.monotonic() - attempt[2] > ATTEMPT_SECONDS:
        return RedirectResponse("/login?" + urlencode({"error": "the sign-in expired; sign in again"}), 303)
    if error is not None or not code:
        return Response(f"The identity provider did not sign you in: {error or 'no code'}.", status_code=401)
    config = verifier.config
    token_endpoint = verifier.keys.discovery.get("token_endpoint")
    if not isinstance(token_endpoint, str) or not secure_endpoint(token_endpoint):
        return Response("The identity provider's discovery document names no https token endpoint.", 503)
    import httpx2

    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": redirect_uri(config.audience),
        "client_id": config.dashboard_client or "",
        "code_verifier": attempt[0],
        "resource": config.audience,
    }
    try:
        async with httpx2.AsyncClient(timeout=10.0, follow_redirects=False) as client:
            answer = await client.post(token_endpoint, data=form, headers={"Accept": "application/json"})
        token = answer.json().get("access_token") if answer.status_code == 200 else None
    except (httpx2.HTTPError, ValueError):
        token = None
    if not isinstance(token, str):
        return Response("The identity provider did not give a token for this gateway.", status_code=401)
    try:
        await verifier.principal(token)
    except IdentityError as exc:
        return Response(f"The identity provider's token does not open this gateway: {exc}", status_code=401)
    response = RedirectResponse(attempt[1], status_code=303)
    response.set_cookie(
        PERSON_COOKIE, token, httponly=True, samesite="lax", secure=request.url.scheme == "https", path="/"
    )
    return response
