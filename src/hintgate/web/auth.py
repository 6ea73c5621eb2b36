"""Who may use the REST API, the dashboard and the MCP endpoint.

Every request needs the API token, as `Authorization: Bearer TOKEN` or the
dashboard's session cookie (set by signing in at `/login`, or by the one-time
link `serve` prints), on loopback too: a model behind the gateway whose tools
can send HTTP requests (a fetcher, a browser) runs on this machine, and
without the token it could read other clients' calls, switch the mode to
bypass or add a server that runs a command. Only an explicit
`serve --no-require-token` (`HINTGATE_REQUIRE_TOKEN=0`) serves loopback
without a token, with a warning at start; beyond loopback it is always
required. A browser asking for a page without either is sent
to the sign-in page; programs get a JSON 401. The token is generated at first start, kept in the data
directory (mode 0600, written whole or not at all) and shown once in the
terminal. A token file that is empty, short or not a token is a corruption (a
start that died while writing it): it is replaced by a new token, said in one
log line. An empty or short token is never accepted, configured or presented.

On loopback (token or not) the Host header must name a loopback address (any of
127.0.0.0/8, ::1, or localhost), on any port (an `ssh -L` forward), on every path including
`/mcp`, so that a web page on a rebinding domain (attacker.example resolving
to 127.0.0.1) cannot read the API or call tools from the user's browser.

Requests that change state are also protected against cross-site requests: a
browser only sends them from hintgate's own pages, which add the
`X-Hintgate-Request` header (htmx sends it on every request; a cross-site
form cannot set a custom header without a CORS preflight, which hintgate
never grants), and an `Origin` header, when present, must be hintgate's own.
An MCP client is not a web page: `/mcp` takes no custom header, and an
`Origin`, when present, must be a loopback one on a loopback bind. The
sign-in pages' own forms (`hintgate.web.notice.FORM_POSTS`) are plain posts
too, and like the sign-in form need no header; another site's `Origin` is
refused there as everywhere.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
import re
import secrets
from collections.abc import Awaitable, Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from hintgate.config.permissions import private_directory
from hintgate.policy.principal import SCOPE_KEY
from hintgate.web.notice import FORM_POSTS

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "MIN_TOKEN_LENGTH",
    "PRINCIPAL",
    "TOKEN_FILE",
    "describe_security",
    "is_loopback",
    "load_or_create_token",
    "local_page",
    "security_middleware",
    "token_matches",
]

logger = logging.getLogger("hintgate")

COOKIE = "hintgate_token"
CSRF_HEADER = "X-Hintgate-Request"
MIN_TOKEN_LENGTH = 16
TOKEN_FILE = "api-token"
"""The file in the data directory that keeps the API token (`load_or_create_token`)."""
PRINCIPAL = SCOPE_KEY
"""The ASGI scope key where the identity check (`hintgate.web.identity`) leaves who a request was verified as."""
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_\-]{32,}")  # what `secrets.token_urlsafe(32)` writes


@lru_cache(maxsize=256)
def is_loopback(host: str) -> bool:
    """Whether a bind address (or a Host header's name) only reaches this machine (remembered: asked per request)."""
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is 127.0.0.1
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def local_page(path: str | None) -> str:
    """`path` when it is a page of this gateway (`/...`, not `//host`, a URL or a backslash), else the catalog `/`.

    Where a sign-in sends the browser back to: a `next` that named another site would make the
    gateway's sign-in an open redirect.
    """
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


def load_or_create_token(data_dir: Path) -> tuple[str, bool]:
    """The API token kept in `data_dir`, created on first use; returns (token, created).

    A file that holds no well-formed token (empty, cut short, garbage) is
    replaced, with a warning: it can only come from a write that died, and
    trusting it would let an empty token in.
    """
    path = data_dir / TOKEN_FILE
    try:
        kept = path.read_text(encoding="utf-8", errors="replace").strip()
    except FileNotFoundError:
        kept = None
    if kept is not None and _TOKEN_SHAPE.fullmatch(kept):
        return kept, False
    private_directory(data_dir)
    token = secrets.token_urlsafe(32)
    if kept is not None:
        logger.warning(
            "%s is corrupt (%d characters, not a token hintgate wrote); replacing it with a new API token",
            path,
            len(kept),
        )
    if not _write_whole(path, token + "\n", replace=kept is not None):
        return load_or_create_token(data_dir)  # another start wrote it first: use theirs
    return token, True


def _write_whole(path: Path, text: str, *, replace: bool) -> bool:
    """Write `text` to `path` (mode 0600) so that it holds all of it or nothing.

    Written to a temporary file, flushed to disk, then moved into place; with
    `replace` false an existing file is kept and False returned.
    """
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)  # atomic, and never over a file another start just wrote
            except FileExistsError:
                return False
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
        return True
    finally:
        temporary.unlink(missing_ok=True)


def _presented(request: Request) -> str | None:
    """The token the request carries, or None: an empty one is no token."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    presented = value if scheme.lower() == "bearer" else request.cookies.get(COOKIE, "")
    return presented.strip() or None


def token_matches(presented: str | None, token: str) -> bool:
    """Whether `presented` is `token`, in constant time; an empty one never is."""
    if not presented or not token:
        return False
    return hmac.compare_digest(presented.encode(), token.encode())


def _split_host(host: str) -> tuple[str, str | None] | None:
    """The name and port of a Host header (`name`, `name:port`, `[v6]:port`); None when malformed."""
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        return name, rest[1:] if rest else None
    name, colon, port = host.partition(":")
    if ":" in port:  # an IPv6 address without brackets
        return None
    return name, port if colon else None


def _host_refusal(request: Request) -> str | None:
    """Why a loopback-bound gateway must not answer this Host header; None when it names this gateway.

    Answered: localhost or any loopback address (127.0.0.0/8, [::1]), on any
    port: an `ssh -L 9000:127.0.0.1:8765` forward sends `Host: localhost:9000`,
    and only this machine's programs can reach a loopback name. A rebinding
    page's requests carry its own domain, so they are refused whatever it
    resolves to.
    """
    return _refusal_of_host(request.headers.get("host", ""))


@lru_cache(maxsize=256)
def _refusal_of_host(header: str) -> str | None:
    """`_host_refusal` of a Host header.

    Remembered: it is asked on every request, and clients send the same few Host headers.
    """
    host = header.strip().lower()
    parts = _split_host(host)
    if parts is None or not is_loopback(parts[0]) or not (parts[1] is None or parts[1].isdigit()):
        return f"this gateway answers only on loopback names (localhost, 127.0.0.0/8, [::1]), not Host {host!r}"
    return None


def _browser_page(request: Request) -> bool:
    """Whether a person's browser asks for a page: a GET accepting HTML, not an htmx fragment request."""
    return (
        request.method in ("GET", "HEAD")
        and "text/html" in request.headers.get("accept", "")
        and request.headers.get("hx-request") is None
    )


def _problem(status: int, detail: str) -> Response:
    return JSONResponse({"detail": detail}, status_code=status)


def security_middleware(
    token: str | None, *, loopback: bool | None = None
) -> Callable[[Request, Callable[[Request], Awaitable[Response]]], Awaitable[Response]]:
    """An HTTP middleware enforcing the token (when one is set) and the cross-site checks.

    Args:
        token: the API token, or None when bound to loopback with `--no-require-token`.
        loopback: whether the gateway is bound to loopback (then the Host and `/mcp` Origin
            checks apply, token or not); by default, whether no token is set.

    Raises:
        ValueError: the token is shorter than `MIN_TOKEN_LENGTH` characters.
    """
    if token is not None and len(token.strip()) < MIN_TOKEN_LENGTH:
        raise ValueError(f"the API token must have at least {MIN_TOKEN_LENGTH} characters, not {len(token.strip())}")
    on_loopback = token is None if loopback is None else loopback

    async def check(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        path = request.scope["path"]  # what `request.url.path` says for every path compared below, without a URL
        mcp = path == "/mcp" or path.startswith("/mcp/")
        if on_loopback:
            refusal = _host_refusal(request)
            if refusal is not None:
                return _problem(421, refusal)
        # Health's details are for those who may see everything; anyone may see whether it is up.
        # A person the identity provider vouched for (hintgate.web.identity, which ran first) counts as signed in:
        # asked before the token is compared, which reads the header again for a person's token (~2 µs a call).
        authenticated = (
            token is None or request.scope.get(PRINCIPAL) is not None or token_matches(_presented(request), token)
        )
        request.scope.setdefault("state", {})["authenticated"] = authenticated  # `request.state`'s own dict
        open_path = path in ("/login", "/api/health") or path.startswith(("/static/", "/login/identity"))
        if not authenticated and not open_path:
            if not mcp and _browser_page(request):
                # A person in a browser gets the sign-in page; programs get the JSON 401.
                url = request.url
                target = url.path + (f"?{url.query}" if url.query else "")
                return RedirectResponse(f"/login?{urlencode({'next': target})}", status_code=303)
            return _problem(401, "an API token is required: Authorization: Bearer TOKEN, or sign in at /login")
        origin = request.headers.get("origin")
        if mcp:
            # MCP clients are programs; a browser page on another site is not one of them.
            if origin is not None and on_loopback and not _loopback_origin(origin):
                return _problem(403, f"cross-site request to /mcp refused (Origin {origin})")
        elif request.method not in _SAFE:
            if origin is not None and origin.rstrip("/") != f"{request.url.scheme}://{request.url.netloc}":
                return _problem(403, f"cross-site request refused (Origin {origin})")
            bearer = request.headers.get("authorization", "").lower().startswith("bearer ")
            # The sign-in form is a plain form post: it changes nothing but the cookie, and carries the token.
            marked = request.headers.get(CSRF_HEADER) is not None or request.headers.get("hx-request") is not None
            if not bearer and not marked and path != "/login" and not _form_post(path):
                return _problem(403, f"state-changing requests need the {CSRF_HEADER} header (or a bearer token)")
        return await call_next(request)

    return check


def _form_post(path: str) -> bool:
    """Whether `path` takes a plain form post from the sign-in pages (`hintgate.web.notice.FORM_POSTS`)."""
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in FORM_POSTS)


def describe_security(schema: dict[str, Any], *, token: bool) -> dict[str, Any]:
    """The OpenAPI document with what a request needs written in: the write header, and the token if any.

    Every operation that changes state (not GET, HEAD, OPTIONS) outside `/mcp`
    lists `X-Hintgate-Request` (any value) or a bearer token as its security,
    so a generated client or `/api/docs` sends one; with a token every operation
    lists the bearer token.
    """
    schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes["hintgateRequest"] = {
        "type": "apiKey",
        "in": "header",
        "name": CSRF_HEADER,
        "description": f"Requests that change state need the {CSRF_HEADER} header, with any value (say 1), "
        "unless they carry a bearer token: a cross-site web page cannot send it.",
    }
    schemes["bearerToken"] = {
        "type": "http",
        "scheme": "bearer",
        "description": "The API token `hintgate serve` prints at start (kept in the data directory, "
        "in api-token); required on every request unless started on loopback with --no-require-token.",
    }
    for path in schema.get("paths", {}).values():
        for method, operation in path.items():
            if not isinstance(operation, dict):
                continue
            if method.upper() in _SAFE:
                if token:
                    operation["security"] = [{"bearerToken": []}]
            else:
                operation["security"] = [{"hintgateRequest": []}, {"bearerToken": []}]
    return schema


def _loopback_origin(origin: str) -> bool:
    """Whether an Origin header names a page served from this machine (http(s)://loopback[:port])."""
    scheme, _, rest = origin.partition("://")
    if scheme not in ("http", "https") or not rest:
        return False
    name = rest[1:].partition("]")[0] if rest.startswith("[") else rest.partition(":")[0]
    return is_loopback(name)
