"""The running gateway's REST API, for the commands that work on a live gateway (`servers`, `quarantine`).

A command finds the gateway at `--url` (the address `serve --http` or
`--dashboard` printed, or `HINTGATE_URL`) and sends the API token when it has
one: `--token`, else `HINTGATE_API_TOKEN`, else the token a gateway on this
machine keeps in its data directory. Every request carries the
`X-Hintgate-Request` header, so a write needs no token on a loopback gateway
that asks for none. A gateway that cannot be reached, or that answers with an
error, ends the command with one line naming the URL or the request, and the
exit code: 2 when the request was wrong (401, 403, 404, 409, 422), 3 otherwise.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from hintgate.cli.common import EXIT_TARGET, EXIT_USAGE, fail

__all__ = ["DEFAULT_URL", "TokenOpt", "UrlOpt", "api_token", "call_api", "quoted", "unreachable"]

DEFAULT_URL = "http://127.0.0.1:8765"
"""Where `hintgate call` looks for a gateway unless told: the address `scripts/demo` serves at."""

UrlOpt = Annotated[
    str,
    typer.Option("--url", envvar="HINTGATE_URL", help="The running gateway's base URL (serve --http/--dashboard)."),
]
TokenOpt = Annotated[
    str | None,
    typer.Option(
        "--token",
        envvar="HINTGATE_API_TOKEN",
        help="The API token, if the gateway needs one (default: the one kept in the data directory).",
    ),
]

_REFUSED = frozenset({401, 403, 404, 409, 422})


def api_token(given: str | None) -> str | None:
    """The token given, else the one a gateway on this machine keeps in the data directory (if any)."""
    if given:
        return given.strip()
    from hintgate.config.settings import Settings
    from hintgate.web.auth import TOKEN_FILE

    try:
        kept = (Settings.from_environ().data_dir / TOKEN_FILE).read_text(encoding="utf-8").strip()
    except Exception:
        return None
    return kept or None


def unreachable(url: str) -> str:
    """What to do when nothing answers at `url`: where the address came from, and how to give the right one."""
    import os

    if os.environ.get("HINTGATE_URL"):
        origin = "from HINTGATE_URL"
    elif url.rstrip("/").removesuffix("/mcp") == DEFAULT_URL:
        origin = "the default"
    else:
        origin = "from --url"
    return (
        f"no gateway answers at {url} ({origin}): start one (hintgate serve --http HOST:PORT), or give the "
        "address its serve printed with --url URL (or HINTGATE_URL)"
    )


def quoted(part: str) -> str:
    """A name as one segment of an API path (`/` and the rest percent-encoded)."""
    from urllib.parse import quote

    return quote(part, safe="")


def call_api(
    method: str,
    url: str,
    path: str,
    token: str | None,
    body: Any = None,
    *,
    timeout: float = 30.0,
    refused: str = "the request",
) -> Any:
    """Send one request to the gateway at `url` and return its JSON answer; an error ends the command.

    Args:
        method: the HTTP method.
        url: the gateway's base URL.
        path: the API path (`/api/...`), its parts already quoted.
        token: the token given (`--token`); see `api_token` for the fallback.
        body: a JSON body, if any.
        timeout: seconds to wait for the answer.
        refused: what a 422 with field errors refused, for its message ("the gateway refused ...").
    """
    import httpx2

    from hintgate import __version__
    from hintgate.web.auth import CSRF_HEADER

    presented = api_token(token)
    headers = {"User-Agent": f"hintgate/{__version__}", CSRF_HEADER: "1"}
    if presented:
        headers["Authorization"] = f"Bearer {presented}"
    try:
        response = httpx2.request(method, url.rstrip("/") + path, headers=headers, json=body, timeout=timeout)
    except httpx2.ConnectError as exc:
        fail(f"cannot reach the gateway at {url}: {exc}; {unreachable(url)}", EXIT_TARGET)
    except httpx2.HTTPError as exc:
        fail(f"cannot reach the gateway at {url}: {exc}", EXIT_TARGET)
    if response.status_code >= 400:
        try:
            problem = response.json()
        except ValueError:
            problem = {"detail": response.text}
        errors = problem.get("errors") if isinstance(problem, dict) else None
        if response.status_code == 422 and errors:
            lines = [f"{_loc(e.get('loc', ()))}: {e.get('msg')}" for e in errors]
            fail(f"the gateway refused {refused}:\n" + "\n".join(lines), EXIT_USAGE)
        detail = problem.get("detail", response.text) if isinstance(problem, dict) else response.text
        code = EXIT_USAGE if response.status_code in _REFUSED else EXIT_TARGET
        fail(f"{method} {path}: {response.status_code}: {detail}", code)
    return response.json()


def _loc(loc: Any) -> str:
    from hintgate.config.yamlpos import format_path

    return format_path(tuple(loc)) or "body"
