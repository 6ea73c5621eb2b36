"""The loopback listener an OAuth login's redirect comes back to.

While a login runs, hintgate listens on 127.0.0.1 (a configured port or a
free one) for the authorization server's redirect to `/callback`, answers the
browser with a short page, and hands the `code`, `state` and `iss` to the
login. It serves nothing else and stops when the login ends.

Only the redirect of this login ends it: the listener knows the `state` the
authorization URL carried (`expect_state`), and a request with another state,
or with none, gets a 400 page while the login keeps waiting. Any local process
or web page can send a request to a loopback port; without this check a stray
`GET /callback?state=wrong` would end (or fail) the login in progress.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import parse_qs, urlsplit

from hintgate.errors import OAuthLoginError

__all__ = ["CALLBACK_PATH", "LoopbackRedirect", "listen_for_redirect"]

CALLBACK_PATH = "/callback"
"""The path of the redirect URI."""

_HEAD_LIMIT = 16 * 1024
_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>hintgate: {title}</title></head>
<body><h1>{title}</h1><p>{text}</p></body></html>
"""


class LoopbackRedirect:
    """One login's redirect listener; `redirect_uri` is what the authorization server sends the browser to."""

    def __init__(self, server: str, port: int) -> None:
        self.server = server
        self.port = port
        self._result: asyncio.Future[dict[str, str]] = asyncio.get_running_loop().create_future()
        self._state: str | None = None

    def expect_state(self, state: str) -> None:
        """Take only a redirect carrying `state` (the one the authorization URL sent)."""
        self._state = state

    @property
    def redirect_uri(self) -> str:
        """`http://127.0.0.1:PORT/callback`."""
        return f"http://127.0.0.1:{self.port}{CALLBACK_PATH}"

    async def wait(self, timeout: float) -> dict[str, str]:
        """The redirect's query parameters (`code`, `state`, `iss`), once it came.

        Raises:
            OAuthLoginError: no redirect came within `timeout` seconds, or it carried an error.
        """
        try:
            async with asyncio.timeout(timeout):
                return await asyncio.shield(self._result)
        except TimeoutError:
            raise OAuthLoginError(
                f"login to {self.server!r}: no redirect came back to {self.redirect_uri} within {timeout:g} s"
            ) from None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Answer one HTTP request on the listener."""
        try:
            async with asyncio.timeout(10.0):
                head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            writer.close()
            return
        request_line = head[:_HEAD_LIMIT].split(b"\r\n", 1)[0].decode("latin-1")
        method, _, rest = request_line.partition(" ")
        target = rest.rpartition(" ")[0] or rest
        parts = urlsplit(target)
        if method != "GET" or parts.path != CALLBACK_PATH:
            await _respond(writer, 404, "Not found", "This address only takes the login's redirect.")
            return
        query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        if self._result.done():
            await _respond(writer, 409, "Already done", "This login already received its answer.")
            return
        if self._state is None or not hmac.compare_digest(query.get("state", "").encode(), self._state.encode()):
            # Not this login's redirect (a stray request, another tab, a page probing the port): keep waiting.
            await _respond(
                writer, 400, "Wrong state", "This is not the redirect of the login in progress; it keeps waiting."
            )
            return
        if "error" in query:
            said = query["error"] + (f": {query['error_description']}" if query.get("error_description") else "")
            self._result.set_exception(
                OAuthLoginError(f"login to {self.server!r}: the authorization server refused ({said})")
            )
            await _respond(writer, 400, "Login refused", f"The authorization server refused: {said}")
            return
        if not query.get("code"):
            await _respond(writer, 400, "No code", "The redirect carried no authorization code.")
            return
        self._result.set_result(query)
        await _respond(
            writer, 200, f"Logged in to {self.server}", "hintgate has the authorization; you can close this tab."
        )


async def _respond(writer: asyncio.StreamWriter, status: int, title: str, text: str) -> None:
    body = _PAGE.format(title=html.escape(title), text=html.escape(text)).encode()
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 409: "Conflict"}[status]
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
        "Connection: close\r\n\r\n"
    )
    with contextlib.suppress(ConnectionError):
        writer.write(head.encode() + body)
        await writer.drain()
    writer.close()


@asynccontextmanager
async def listen_for_redirect(server: str, port: int | None) -> AsyncIterator[LoopbackRedirect]:
    """Listen on 127.0.0.1 (`port`, or a free one) for one login's redirect, until the block ends.

    Raises:
        OAuthLoginError: the port cannot be bound.
    """
    redirect: LoopbackRedirect | None = None

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        assert redirect is not None
        await redirect.handle(reader, writer)

    try:
        listener = await asyncio.start_server(handle, "127.0.0.1", port or 0)
    except OSError as exc:
        where = f"127.0.0.1:{port} (its oauth.redirect_port)" if port else "a free port of 127.0.0.1"
        raise OAuthLoginError(
            f"login to {server!r}: cannot listen on {where} for the redirect: {exc.strerror or exc}"
        ) from exc
    bound = listener.sockets[0].getsockname()[1]
    redirect = LoopbackRedirect(server, bound)
    try:
        yield redirect
    finally:
        listener.close()
        with contextlib.suppress(Exception):
            async with asyncio.timeout(2.0):
                await listener.wait_closed()
