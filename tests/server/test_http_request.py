"""An HTTP request whose missing headers are answered by their default (`hintgate.server.http_request`)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import Scope

from hintgate.server.http_request import HttpRequest

_HEADERS = [(b"host", b"127.0.0.1:8765"), (b"accept", b"application/json"), (b"accept", b"text/event-stream")]


def _scope() -> Scope:
    return {"type": "http", "method": "POST", "path": "/mcp", "headers": list(_HEADERS)}


def test_a_header_is_read_as_starlette_reads_it_whatever_the_spelling_of_its_name() -> None:
    ours, theirs = HttpRequest(_scope()).headers, Request(_scope()).headers
    for name in ("host", "Host", "ACCEPT", "origin", "Origin"):
        assert ours.get(name) == theirs.get(name)
        assert ours.get(name, "none") == theirs.get(name, "none")
    assert ours.getlist("accept") == ["application/json", "text/event-stream"]


def test_a_missing_header_is_its_default() -> None:
    headers = HttpRequest(_scope()).headers
    assert headers.get("origin") is None
    assert headers.get("mcp-session-id", "") == ""


def test_the_headers_are_read_once_per_request() -> None:
    request = HttpRequest(_scope())
    assert request.headers is request.headers
