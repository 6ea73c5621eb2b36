"""Who may use the REST API, the dashboard and the MCP endpoint.

Bound to loopback (the default), hintgate trusts the machine's users: no
token. Bound anywhere else, every request needs the API token, as
`Authorization: Bearer TOKEN` or the dashboard's session cookie (set by
`/login?token=...`). The token is generated at first start, kept in the data
directory (mode 0600) and shown once in the terminal.

On loopback the Host header must name a loopback address, so that a web page
on a rebinding domain (attacker.example resolving to 127.0.0.1) cannot read
the API from the user's browser.

Requests that change state are also protected against cross-site requests: a
browser only sends them from hintgate's own pages, which add the
`X-Hintgate-Request` header (htmx sends it on every request; a cross-site
form cannot set a custom header without a CORS preflight, which hintgate
never grants), and an `Origin` header, when present, must be hintgate's own.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

__all__ = ["COOKIE", "CSRF_HEADER", "is_loopback", "load_or_create_token", "security_middleware"]

COOKIE = "hintgate_token"
CSRF_HEADER = "X-Hintgate-Request"
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})
_LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def is_loopback(host: str) -> bool:
    """Whether a bind address only accepts connections from this machine."""
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_or_create_token(data_dir: Path) -> tuple[str, bool]:
    """The API token kept in `data_dir`, created on first use; returns (token, created)."""
    path = data_dir / "api-token"
    if path.exists():
        return path.read_text(encoding="utf-8").strip(), False
    data_dir.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    return token, True


def _presented(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE)


def _problem(status: int, detail: str) -> Response:
    return JSONResponse({"detail": detail}, status_code=status)


def security_middleware(
    token: str | None,
) -> Callable[[Request, Callable[[Request], Awaitable[Response]]], Awaitable[Response]]:
    """An HTTP middleware enforcing the token (when one is set) and the cross-site checks."""

    async def check(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        path = request.url.path
        if token is None and not path.startswith("/mcp"):  # the MCP endpoint has the SDK's own check
            host = request.headers.get("host", "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.strip("[]") not in _LOOPBACK_NAMES:
                return _problem(421, f"this gateway answers only on loopback names, not {host!r}")
        if token is not None and path not in ("/login", "/api/health") and not path.startswith("/static/"):
            presented = _presented(request)
            if presented is None or not hmac.compare_digest(presented, token):
                return _problem(
                    401, "an API token is required: Authorization: Bearer TOKEN, or open /login?token=TOKEN"
                )
        if request.method not in _SAFE and not path.startswith("/mcp"):
            origin = request.headers.get("origin")
            if origin is not None and origin.rstrip("/") != f"{request.url.scheme}://{request.url.netloc}":
                return _problem(403, f"cross-site request refused (Origin {origin})")
            bearer = request.headers.get("authorization", "").lower().startswith("bearer ")
            if not bearer and request.headers.get(CSRF_HEADER) is None and request.headers.get("hx-request") is None:
                return _problem(403, f"state-changing requests need the {CSRF_HEADER} header (or a bearer token)")
        return await call_next(request)

    return check
