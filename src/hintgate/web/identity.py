"""The gateway as an OAuth 2.1 protected resource: people signed in at the company's identity provider.

With an `identity` section, `/mcp`, `/api` and `/metrics` take
`Authorization: Bearer JWT`, where the JWT is an access token the configured
issuer signed for the configured audience (MCP authorization, RFC 9068,
RFC 8707). The issuer's keys come from its OpenID discovery document's
`jwks_uri`, are cached, and are fetched again when a token names a key id
the cache does not hold, at most once per `REFRESH_EVERY` seconds (a flood of
tokens naming made-up key ids costs the issuer one request per interval) and
every `KEYS_MAX_AGE` seconds in any case. `iss`, `aud` and `exp` are required,
`nbf` and `iat` checked when present, all with `clock_skew` seconds of slack.
Only public-key algorithms are accepted: `alg: none` proves nothing, and an
HMAC token would verify with the issuer's *public* key as its secret. The keys
are fetched over https only (http only from this machine): a key set read in
clear could be replaced on the way, and every token with it.

Only access tokens open the gateway. An ID token the same issuer signed for a
client whose id is the audience (Entra ID's v2 tokens do that) proves that a
person signed in to *that client*, not that the client may call the gateway:
a token must say `typ: at+jwt` in its header (RFC 9068; `requireTokenType:
false` for issuers that do not write it), and a token carrying `nonce` or
`at_hash` (the marks of an ID token) is refused whatever its header says. With
`identity.clients`, only tokens issued to those clients (`client_id`, else
`azp`, else `appid`) are accepted, and the dashboard's own client.

A request without a token, or with one refused, gets 401 with
`WWW-Authenticate: Bearer resource_metadata="..."` naming the RFC 9728
protected-resource metadata, which the gateway serves (at
`/.well-known/oauth-protected-resource` and at the path-suffixed form for the
audience's path): MCP clients read it to find the issuer and log their user in.
The static API token stays valid beside it, for automation and the operator
(`API_TOKEN`), and the dashboard's cookie is left to `hintgate.web.auth`.

A token once verified is remembered (up to `ACCEPTED_CACHE` tokens) until it
expires, so a client's next request costs a dictionary lookup, not a signature
check; the memory is emptied whenever the keys are fetched again.
"""

from __future__ import annotations

import importlib
import json
import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hintgate.config.model import IdentityConfig
from hintgate.errors import IdentityError
from hintgate.policy.principal import API_TOKEN, Principal, PrincipalKind, principal_of, reserved_name
from hintgate.web.auth import COOKIE, PRINCIPAL, is_loopback, token_matches

if TYPE_CHECKING:
    from hintgate.web.jwk import PublicJwk

__all__ = [
    "ACCEPTED_CACHE",
    "KEYS_MAX_AGE",
    "METADATA_PATH",
    "PERSON_COOKIE",
    "REFRESH_EVERY",
    "IssuerKeys",
    "SessionOwners",
    "TokenVerifier",
    "identity_middleware",
    "person_name",
    "resource_metadata_url",
    "secure_endpoint",
]

logger = logging.getLogger("hintgate")

METADATA_PATH = "/.well-known/oauth-protected-resource"
PERSON_COOKIE = "hintgate_person"
"""The dashboard's cookie holding the access token of the person signed in (`hintgate.web.signin`)."""
REFRESH_EVERY = 10.0
"""Seconds between fetches of the issuer's keys prompted by an unknown key id."""
KEYS_MAX_AGE = 3600.0
"""Seconds the issuer's keys are used before they are fetched again anyway (a removed key stops working)."""
ACCEPTED_CACHE = 4096
"""Verified tokens remembered until they expire."""
_FETCH_TIMEOUT = 10.0
_ACCESS_TOKEN_TYPES = frozenset({"at+jwt", "application/at+jwt"})
"""What the `typ` header of an access token says (RFC 9068 §2.1; media types compare without case)."""
_ID_TOKEN_MARKS = ("nonce", "at_hash")
"""Claims only an ID token carries (OpenID Connect Core §2, §3.1.3.6): no access token has them."""
_CLIENT_CLAIMS = ("client_id", "azp", "appid")
"""Where a token names the client it was issued to: RFC 9068, OpenID Connect (Entra v2), Entra v1."""
_SIGNATURES_LOADED = threading.Event()
"""Set once `hintgate.web.jwk` and `hintgate.web.jws` are imported (cryptography waits for a key or token not RS*)."""


def _import_signatures() -> None:
    for module in ("hintgate.web.jwk", "hintgate.web.jws"):  # reads the issuer's keys; checks tokens' signatures
        importlib.import_module(module)
    _SIGNATURES_LOADED.set()


async def _signatures_loaded() -> None:
    """Import what reads keys and checks signatures, off the event loop, when an issuer's keys or a token first
    need it: a gateway without an identity section never loads the cryptography for it."""
    if not _SIGNATURES_LOADED.is_set():
        await anyio.to_thread.run_sync(_import_signatures)


def secure_endpoint(url: str) -> bool:
    """Whether the issuer's documents may be read from `url`: https, or http to this machine only."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        return bool(parts.hostname)
    return parts.scheme == "http" and parts.hostname is not None and is_loopback(parts.hostname)


class IssuerKeys:
    """The signing keys an OpenID issuer publishes, fetched through its discovery document and cached.

    Args:
        issuer: the issuer as configured; discovery must name the same one.
        get: fetches a URL's JSON (by default with httpx2, no redirects, 10 s): replaced in tests only to count.
        refresh_every: the least time between two fetches prompted by an unknown key id.
    """

    def __init__(
        self,
        issuer: str,
        *,
        get: Callable[[str], Awaitable[Any]] | None = None,
        refresh_every: float = REFRESH_EVERY,
    ) -> None:
        self.issuer = issuer
        self.get = get or _get_json
        self.refresh_every = refresh_every
        self.keys: dict[str, PublicJwk] = {}
        self.declared: dict[str, str] = {}  # key id -> the algorithm its JWK names, when it names one
        self.issuer_named = issuer  # the issuer as discovery spells it: `iss` must be exactly that
        self.discovery: Mapping[str, Any] = {}  # the issuer's discovery document, as last fetched
        self.anonymous: list[PublicJwk] = []  # keys published without a `kid`
        self.fetched_at: float | None = None
        self.fetches = 0
        self.generation = 0  # bumped by every fetch that changed the keys
        self._lock = anyio.Lock()

    async def key(self, kid: str | None) -> PublicJwk | None:
        """The published key with this id (the only key without an id, when `kid` is None), or None."""
        now = time.monotonic()
        stale = self.fetched_at is None or now - self.fetched_at > KEYS_MAX_AGE
        found = self._pick(kid)
        if found is not None and not stale:
            return found
        async with self._lock:
            found = self._pick(kid)
            fetched = self.fetched_at
            if fetched is not None and (time.monotonic() - fetched) < self.refresh_every:
                # Fetched a moment ago (maybe by the request we waited for): what it has is what there is.
                return found
            if found is not None and not stale:
                return found
            await self.refresh()
            return self._pick(kid)

    def _pick(self, kid: str | None) -> PublicJwk | None:
        if kid is None:
            return self.anonymous[0] if len(self.anonymous) == 1 and not self.keys else None
        return self.keys.get(kid)

    async def refresh(self) -> None:
        """Fetch the discovery document and the key set again.

        Raises:
            IdentityError: the issuer cannot be reached, or answers with something other than its keys.
        """
        self.fetches += 1
        self.fetched_at = time.monotonic()  # a failed fetch also waits its turn: no retry storm on a down issuer
        base = self.issuer.rstrip("/")
        discovery = await self.get(f"{base}/.well-known/openid-configuration")
        if not isinstance(discovery, Mapping):
            raise IdentityError(f"{base}/.well-known/openid-configuration is not a JSON object")
        named = discovery.get("issuer")
        if not isinstance(named, str) or named.rstrip("/") != base:
            raise IdentityError(f"the discovery document of {self.issuer} names another issuer: {named!r}")
        self.discovery = discovery
        jwks_uri = discovery.get("jwks_uri")
        if not isinstance(jwks_uri, str) or urlsplit(jwks_uri).scheme not in ("https", "http"):
            raise IdentityError(f"the discovery document of {self.issuer} has no usable jwks_uri: {jwks_uri!r}")
        if not secure_endpoint(jwks_uri):
            raise IdentityError(
                f"the discovery document of {self.issuer} names a jwks_uri that is not https: {jwks_uri!r} "
                "(keys read in clear could be replaced on the way; http is accepted on this machine only)"
            )
        document = await self.get(jwks_uri)
        listed = document.get("keys") if isinstance(document, Mapping) else None
        if not isinstance(listed, list):
            raise IdentityError(f"{jwks_uri} is not a JSON Web Key Set (no keys list)")
        await _signatures_loaded()
        from hintgate.web.jwk import read_public_jwk

        keys: dict[str, PublicJwk] = {}
        declared: dict[str, str] = {}
        anonymous: list[PublicJwk] = []
        for entry in listed:
            if not isinstance(entry, Mapping) or entry.get("use", "sig") != "sig":
                continue
            key = read_public_jwk(entry)
            if key is None:
                continue  # not a public signing key of a type and curve a token may use: its tokens are refused
            kid = entry.get("kid")
            if isinstance(kid, str):
                keys[kid] = key
                if isinstance(alg := entry.get("alg"), str):
                    declared[kid] = alg
            else:
                anonymous.append(key)
        if set(keys) != set(self.keys) or len(anonymous) != len(self.anonymous):
            self.generation += 1
        self.keys, self.declared, self.anonymous = keys, declared, anonymous
        self.issuer_named = named


async def _get_json(url: str) -> Any:
    import httpx2

    try:
        async with httpx2.AsyncClient(timeout=_FETCH_TIMEOUT, follow_redirects=False) as client:
            response = await client.get(url, headers={"Accept": "application/json"})
    except httpx2.HTTPError as exc:
        raise IdentityError(f"cannot fetch {url}: {exc}") from exc
    if response.status_code != 200:
        raise IdentityError(f"{url} answered {response.status_code}")
    try:
        return response.json()
    except ValueError as exc:
        raise IdentityError(f"{url} did not answer JSON") from exc


class TokenVerifier:
    """Turns a bearer token into the `Principal` it proves, or says why it proves nothing."""

    def __init__(self, config: IdentityConfig, keys: IssuerKeys | None = None) -> None:
        self.config = config
        self.keys = keys or IssuerKeys(config.issuer)
        self.accepted: dict[str, tuple[Principal, float]] = {}
        self._generation = self.keys.generation

    async def principal(self, token: str) -> Principal:
        """The person `token` names, when the issuer signed it for this gateway and it is in date.

        Raises:
            IdentityError: why the token is refused (one line, safe to show its bearer).
        """
        if self._generation != self.keys.generation:
            self.accepted.clear()
            self._generation = self.keys.generation
        remembered = self.accepted.get(token)
        if remembered is not None:
            principal, expires = remembered
            if time.time() <= expires + self.config.clock_skew:
                return principal
            del self.accepted[token]
            raise IdentityError("the token has expired")
        await _signatures_loaded()
        from hintgate.web.jwk import FAMILY
        from hintgate.web.jws import read_compact, signature_verifies

        jws = read_compact(token)
        if jws is None:
            raise IdentityError("the bearer token is not a JWT")
        header = jws.header
        alg = header.get("alg")
        if alg not in self.config.algorithms:
            raise IdentityError(f"tokens signed with {alg!r} are not accepted")
        if "crit" in header:
            # Extensions the token says must be understood (RFC 7515 §4.1.11): this gateway understands none.
            raise IdentityError("the token names critical header extensions, which are not accepted")
        typ = header.get("typ")
        if self.config.require_token_type and not (isinstance(typ, str) and typ.lower() in _ACCESS_TOKEN_TYPES):
            raise IdentityError(
                f"the token's header says typ {typ!r}, not 'at+jwt': only access tokens are accepted (RFC 9068); "
                "for an issuer that does not write it, set identity.requireTokenType: false"
            )
        kid = header.get("kid")
        key = await self.keys.key(kid if isinstance(kid, str) else None)
        if key is None:
            raise IdentityError(f"the token is signed with a key the issuer does not publish (kid {kid!r})")
        declared = self.keys.declared.get(kid) if isinstance(kid, str) else None
        if key.key_type != FAMILY[alg] or declared not in (None, alg):
            raise IdentityError(f"the issuer's key {kid!r} is not a key for {alg}")
        if not signature_verifies(jws, alg, key.key):
            raise IdentityError("the token's signature does not verify")
        claims = jws.claims
        self._check_claims(claims)
        principal = self._principal(claims)
        if len(self.accepted) >= ACCEPTED_CACHE:
            del self.accepted[next(iter(self.accepted))]
        self.accepted[token] = (principal, float(claims["exp"]))
        return principal

    def _check_claims(self, claims: Mapping[str, Any]) -> None:
        """Refuse a token not from the issuer, not for this gateway, or out of date (with `clock_skew` slack)."""
        for required in ("exp", "iss", "aud"):
            if claims.get(required) is None:
                raise IdentityError(f"the token has no {required!r} claim")
        now, skew = time.time(), self.config.clock_skew
        for name in ("exp", "nbf", "iat"):
            value = claims.get(name)
            number = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
            if value is not None and not number:
                raise IdentityError(f"the token's {name!r} claim is not a number of seconds")
        if claims["exp"] <= now - skew:
            raise IdentityError("the token has expired")
        if any(claims.get(name, 0) > now + skew for name in ("nbf", "iat")):
            raise IdentityError("the token is not valid yet")
        if claims["iss"] != self.keys.issuer_named:
            raise IdentityError(f"the token is not from {self.config.issuer}")
        audience = claims["aud"]
        listed = [audience] if isinstance(audience, str) else audience if isinstance(audience, list) else []
        if self.config.audience not in listed:
            raise IdentityError(f"the token is not for this gateway (audience is not {self.config.audience})")
        for mark in _ID_TOKEN_MARKS:
            if mark in claims:
                raise IdentityError(f"the token carries {mark!r}: it is an ID token; only access tokens are accepted")
        if self.config.clients:
            allowed = {*self.config.clients, *filter(None, [self.config.dashboard_client])}
            client = next((v for c in _CLIENT_CLAIMS if isinstance(v := claims.get(c), str)), None)
            if client is None:
                named = ", ".join(_CLIENT_CLAIMS)
                raise IdentityError(f"the token names no client ({named}), and identity.clients is set")
            if client not in allowed:
                raise IdentityError(f"the token was issued to client {client!r}, which identity.clients does not list")

    def _principal(self, claims: Mapping[str, Any]) -> Principal:
        """The person a verified token names: keyed by the issuer and `sub` (or `personClaim`), named for people.

        See `hintgate.policy.principal` for the two names and `person_name` for the choice of the second.
        """
        key_claim = self.config.person_claim or "sub"
        held = claims.get(key_claim)
        if not isinstance(held, str) or not held.strip():
            raise IdentityError(f"the token has no {key_claim!r} claim, which says who the person is")
        if not held.isprintable():
            raise IdentityError(f"the token's {key_claim!r} claim holds control characters")
        name = person_name(claims, self.config.user_claims, self.config.assigned_claims)
        listed = claims.get(self.config.groups_claim, ())
        if isinstance(listed, str):
            listed = [listed]
        groups = frozenset(g for g in listed if isinstance(g, str)) if isinstance(listed, list) else frozenset()
        subject = claims.get("sub")
        return Principal(
            name,
            PrincipalKind.USER,
            groups,
            subject=subject if isinstance(subject, str) else None,
            key=f"{claims['iss']}#{key_claim}={held}",
        )


def person_name(claims: Mapping[str, Any], user_claims: tuple[str, ...], assigned: tuple[str, ...]) -> str:
    """How people and rules call the person a token names: the first of `user_claims` that may name them.

    A claim may name the person when it holds a non-empty string that is not a
    reserved name (`api-token`, `local`, `operator:...`), and:

    - `email` only with `email_verified: true`: an address nobody verified is
      only what the account typed, maybe another person's;
    - another claim only when its value has no `@`, unless the issuer assigns
      it (`assigned`, by default `sub`): a username a person chose must not pass
      for someone's email address, which rules and approvers name people by.

    Raises:
        IdentityError: no claim may name the person; the message says why each was passed over.
    """
    passed: list[str] = []
    for claim in user_claims:
        value = claims.get(claim)
        if not isinstance(value, str) or not value.strip():
            continue
        value = value.strip()
        if reserved_name(value):
            passed.append(f"{claim} {value!r} is a name the gateway keeps for itself")
        elif claim == "email" and claims.get("email_verified") not in (True, "true"):
            passed.append("email is not verified (email_verified is not true)")
        elif claim != "email" and "@" in value and claim not in assigned:
            passed.append(f"{claim} {value!r} looks like an email address, and only a verified email may be one")
        else:
            return value
    why = "; ".join(passed) if passed else f"none of {', '.join(user_claims)} is present"
    raise IdentityError(f"the token names no user that can be told apart from others: {why}")


def resource_metadata_url(config: IdentityConfig) -> str:
    """Where the protected-resource metadata of the audience is: its origin, the well-known path, its path."""
    parts = urlsplit(config.audience)
    path = parts.path.rstrip("/")
    return f"{parts.scheme}://{parts.netloc}{METADATA_PATH}{path}"


def _metadata(config: IdentityConfig) -> dict[str, Any]:
    document: dict[str, Any] = {
        "resource": config.audience,
        "authorization_servers": [config.issuer],
        "bearer_methods_supported": ["header"],
        "resource_signing_alg_values_supported": list(config.algorithms),
        "resource_name": "hintgate",
    }
    if config.scopes:
        document["scopes_supported"] = list(config.scopes)
    return document


def _challenge(config: IdentityConfig, url: str, error: str | None = None) -> str:
    parts = [f'resource_metadata="{url}"']
    if config.scopes:
        parts.append(f'scope="{" ".join(config.scopes)}"')
    if error is not None:
        parts.append('error="invalid_token"')
        parts.append(f"error_description={json.dumps(error)}")
    return "Bearer " + ", ".join(parts)


def _guarded(path: str) -> bool:
    """Whether a path takes a bearer token from the identity provider: MCP, the REST API and metrics."""
    if path == "/api/health":
        return False  # whether it is up is for anyone: load balancers ask without a token
    return path in ("/mcp", "/metrics", "/api") or path.startswith(("/mcp/", "/api/"))


def identity_middleware(
    verifier: TokenVerifier, token: str | None
) -> Callable[[Request, Callable[[Request], Awaitable[Response]]], Awaitable[Response]]:
    """An HTTP check answering the metadata document and verifying bearer JWTs (see the module's docstring).

    A verified request carries its `Principal` in the scope (`PRINCIPAL`), which
    `hintgate.web.auth` takes as authenticated; the API token is left to that
    check, and a request with it is the `API_TOKEN` principal.

    Args:
        verifier: checks the tokens.
        token: the gateway's static API token, if any.
    """
    config = verifier.config
    url = resource_metadata_url(config)
    metadata = _metadata(config)
    documents = {METADATA_PATH, METADATA_PATH + urlsplit(config.audience).path.rstrip("/")}

    async def check(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        path = request.scope["path"]
        if path in documents and request.method in ("GET", "HEAD"):
            return JSONResponse(metadata, headers={"Cache-Control": "max-age=3600"})
        scheme, _, value = request.headers.get("authorization", "").partition(" ")
        presented = value.strip() if scheme.lower() == "bearer" else ""
        signed_in = request.cookies.get(PERSON_COOKIE, "") if not presented else ""
        if signed_in.count(".") == 2:
            # A person signed in to the dashboard: their token, kept in the cookie the sign-in set.
            try:
                request.scope[PRINCIPAL] = await verifier.principal(signed_in)
            except IdentityError:
                pass  # expired or stale: as if not signed in (a page goes to /login, the API answers 401)
            else:
                return await call_next(request)
        if presented.count(".") == 2:
            try:
                request.scope[PRINCIPAL] = await verifier.principal(presented)
            except IdentityError as exc:
                return _refusal(config, url, str(exc))
            return await call_next(request)
        if token is not None and token_matches(presented or request.cookies.get(COOKIE), token):
            request.scope[PRINCIPAL] = API_TOKEN  # the operator's dashboard cookie is the same token
            return await call_next(request)
        if _guarded(path) and not presented and not (path.startswith("/api/") and request.cookies):
            return _refusal(config, url, None)
        return await call_next(request)

    return check


def _refusal(config: IdentityConfig, url: str, error: str | None) -> Response:
    detail = error or "a bearer token from the identity provider is required"
    return JSONResponse(
        {"detail": detail},
        status_code=401,
        headers={"WWW-Authenticate": _challenge(config, url, error)},
    )


class SessionOwners:
    """ASGI middleware: a handshake-era MCP session answers only the person who opened it.

    The MCP SDK finds a session by its `Mcp-Session-Id` alone, which travels in
    clear beside the token; without this, another person who learnt the id
    could send requests in it, or listen on its stream for its questions. The
    owner (the principal's key, never the name two accounts could share) is
    taken from the `initialize` response that hands out the id; a request
    naming a session with another owner, or one this gateway did not hand out,
    gets 404 (the spec's answer for an unknown session, which tells
    nothing). The most recent `limit` sessions are remembered; an older one
    gets 404 and its client starts a new session, as after a restart.
    """

    def __init__(self, app: ASGIApp, limit: int = 65536) -> None:
        self.app = app
        self.limit = limit
        self.owners: dict[str, str] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        principal = principal_of(scope) if scope["type"] == "http" else None
        if principal is None or not (path == "/mcp" or path.startswith("/mcp/")):
            await self.app(scope, receive, send)
            return
        session_id = _session_id(scope["headers"])
        if session_id is not None:
            if self.owners.get(session_id) != principal.key:
                await _no_such_session()(scope, receive, send)
                return
            if scope.get("method") == "DELETE":
                await self.app(scope, receive, send)
                self.owners.pop(session_id, None)
                return
            await self.app(scope, receive, send)
            return

        async def noting(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = _session_id(message.get("headers", ()))
                if given is not None:
                    if len(self.owners) >= self.limit:
                        del self.owners[next(iter(self.owners))]
                    self.owners[given] = principal.key
            await send(message)

        await self.app(scope, receive, noting)

    async def admit(self, request: Request, session_id: str) -> ASGIApp | None:
        """For a request to `/mcp` naming `session_id` that ends no session (not a DELETE): the 404 refusing it when
        its person did not open that session, else None (what `__call__` does for it, without the app around it)."""
        principal = principal_of(request.scope)
        if principal is not None and self.owners.get(session_id) != principal.key:
            return _no_such_session()
        return None


def _no_such_session() -> Response:
    """The answer to a request naming a session its person did not open (the same as to an unknown session)."""
    return JSONResponse({"detail": "no such session"}, status_code=404)


def _session_id(headers: Any) -> str | None:
    return next((v.decode("latin-1") for k, v in headers if k.lower() == b"mcp-session-id"), None)
