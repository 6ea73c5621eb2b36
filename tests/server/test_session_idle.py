"""HTTP sessions that go quiet end: a real `serve --http`, raw HTTP clients of both protocol eras.

With `timeouts.sessionIdle` set to one second, a handshake-era session with
no request in flight is terminated (its id answers 404, as the spec says for
an expired session) and recorded closed; a 2026-07-28 client's session is
recorded closed once it stops sending requests. A session that keeps
talking stays active, and so does one listening on an open GET stream until
that stream drops; a 2026-07-28 session asked an approval question stays open
until the question expires.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from tests.waiting import until as poll_until

from hintgate.testing import RunningGateway, running_gateway

HANDSHAKE = "2025-11-25"
MODERN = "2026-07-28"
ACCEPT = "application/json, text/event-stream"
WAIT = 30.0  # seconds any one condition may take to come true
until = partial(poll_until, within=WAIT, every=0.1)  # bounded polls: see tests.waiting


@contextmanager
def gateway(tmp_path: Path, idle: float = 1) -> Iterator[RunningGateway]:
    """An empty gateway (no servers: sessions need none) recording to its own database."""
    config = tmp_path / "hintgate.json"
    config.write_text(json.dumps({"mcpServers": {}, "timeouts": {"sessionIdle": idle}}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    with running_gateway("--config", str(config), "--db", f"sqlite:///{tmp_path / 'h.db'}", env=env) as running:
        yield running


def body(response: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC message of a response, whether sent as JSON or as one SSE event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return json.loads(next(d for d in data if d))  # type: ignore[no-any-return]
    return response.json()  # type: ignore[no-any-return]


class HandshakeClient:
    """A 2025-11-25 client over raw HTTP: initialize, then requests under its Mcp-Session-Id."""

    def __init__(self, http: httpx.Client, url: str, name: str) -> None:
        self.http, self.url, self.next_id = http, url, 1
        opened = self.post(
            "initialize",
            {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": name, "version": "1"}},
        )
        assert opened.status_code == 200, opened.text
        self.session_id = opened.headers["mcp-session-id"]
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert self.http.post(self.url, json=initialized, headers=self.headers()).status_code == 202

    def headers(self) -> dict[str, str]:
        sid = getattr(self, "session_id", None)
        extra = {"mcp-session-id": sid, "mcp-protocol-version": HANDSHAKE} if sid else {}
        return {"accept": ACCEPT, **extra}

    def post(self, method: str, params: dict[str, Any] | None = None) -> httpx.Response:
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}}
        self.next_id += 1
        return self.http.post(self.url, json=message, headers=self.headers())


def modern_request(http: httpx.Client, url: str, name: str, method: str) -> httpx.Response:
    """One self-contained 2026-07-28 request from the client `name`."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": name, "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": meta}}
    headers = {"accept": ACCEPT, "mcp-protocol-version": MODERN, "mcp-method": method}
    return http.post(url, json=message, headers=headers)


def recorded(http: httpx.Client, running: RunningGateway, client: str) -> dict[str, Any] | None:
    """The recorded session of the client named `client`, as /api/sessions lists it."""
    rows = http.get(f"{running.base_url}/api/sessions").json()
    return next((row for row in rows if row["client_name"] == client), None)


def test_a_handshake_session_idle_past_the_timeout_is_ended_and_its_id_answers_404(tmp_path: Path) -> None:
    with gateway(tmp_path) as running, httpx.Client(timeout=WAIT, headers=running.headers) as http:
        quiet = HandshakeClient(http, running.mcp_url, "quiet")
        talking = HandshakeClient(http, running.mcp_url, "talking")
        assert quiet.post("tools/list").status_code == 200
        assert talking.post("tools/list").status_code == 200

        def keep_talking() -> None:
            answer = talking.post("tools/list")
            assert answer.status_code == 200, answer.text

        # The recorder writes behind the answer: wait for the row rather than read it at once, and keep the
        # talking session busy meanwhile (a slow write may take longer than the idle timeout).
        until(lambda: recorded(http, running, "quiet"), "the quiet session is recorded", meanwhile=keep_talking)
        ended = until(
            lambda: (row := recorded(http, running, "quiet")) and row["status"] == "closed" and row,
            "the quiet session is recorded closed",
            meanwhile=keep_talking,
        )
        late = quiet.post("tools/list")
        kept = talking.post("tools/list")
        still = recorded(http, running, "talking")
    assert ended["ended_at"] is not None
    assert late.status_code == 404
    assert kept.status_code == 200
    assert "tools" in body(kept)["result"]
    assert still is not None
    assert still["status"] == "active"


def test_a_2026_07_28_client_that_stops_sending_requests_has_its_session_ended(tmp_path: Path) -> None:
    with gateway(tmp_path) as running, httpx.Client(timeout=WAIT, headers=running.headers) as http:
        for name in ("quiet-modern", "talking-modern"):
            answer = modern_request(http, running.mcp_url, name, "tools/list")
            assert answer.status_code == 200, answer.text

        def keep_talking() -> None:
            answer = modern_request(http, running.mcp_url, "talking-modern", "tools/list")
            assert answer.status_code == 200, answer.text

        until(
            lambda: recorded(http, running, "quiet-modern"),
            "the quiet 2026-07-28 session is recorded",
            meanwhile=keep_talking,
        )
        ended = until(
            lambda: (row := recorded(http, running, "quiet-modern")) and row["status"] == "closed" and row,
            "the quiet 2026-07-28 session is recorded closed",
            meanwhile=keep_talking,
        )
        still = recorded(http, running, "talking-modern")
    assert ended["ended_at"] is not None
    assert still is not None
    assert still["status"] == "active"


@pytest.mark.parametrize("value", [0, -1, "soon", True])
def test_a_session_idle_timeout_that_is_not_a_positive_number_is_refused_naming_its_key(
    tmp_path: Path, value: Any
) -> None:
    from hintgate.config.loading import parse_config
    from hintgate.errors import ConfigError

    with pytest.raises(ConfigError, match=r"timeouts\.sessionIdle.*expected a number of seconds greater than 0"):
        parse_config({"mcpServers": {}, "timeouts": {"sessionIdle": value}}, source="test.json")


async def _modern_answer_after_the_idle_timeout(running: RunningGateway) -> tuple[Any, dict[str, Any]]:
    """Ask (2026-07-28), let a later client's session go idle and end, then answer; returns the answer's result."""
    import mcp_types as types
    from mcp import Client

    from hintgate.policy.asking import APPROVAL_KEY

    async def never_asked(context: Any, params: Any) -> types.ElicitResult:
        raise AssertionError("the answer is given by hand")

    asker = types.Implementation(name="asker", version="1")
    note = {"title": "after idle", "body": "b"}
    with anyio.fail_after(WAIT * 2):
        async with (
            httpx.AsyncClient(timeout=WAIT, headers=running.headers) as http,
            Client(running.mcp_transport(), mode=MODERN, client_info=asker, elicitation_callback=never_asked) as client,  # type: ignore[arg-type]
        ):
            question = await client.session.call_tool("demo_create_note", note, allow_input_required=True)
            assert isinstance(question, types.InputRequiredResult), question
            # A client that speaks after the question goes quiet: once its session is ended, the asker's
            # (quiet for longer) would have been too, were its open question not holding it.
            later = await http.post(
                running.mcp_url,
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": _envelope("later")}},
                headers={"accept": ACCEPT, "mcp-protocol-version": MODERN, "mcp-method": "tools/list"},
            )
            assert later.status_code == 200, later.text
            while (await http.get(f"{running.base_url}/api/sessions", params={"status": "closed"})).json() == []:
                await anyio.sleep(0.1)
            reply = {APPROVAL_KEY: types.ElicitResult(action="accept", content={"decision": "approve-once"})}
            answered = await client.session.call_tool(
                "demo_create_note", note, input_responses=reply, request_state=question.request_state
            )
            rows = (await http.get(f"{running.base_url}/api/sessions")).json()
    return answered, {row["client_name"]: row["status"] for row in rows}


def _envelope(name: str) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": name, "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {},
    }


@pytest.mark.anyio
async def test_a_2026_07_28_session_with_an_open_approval_question_outlives_the_idle_timeout(tmp_path: Path) -> None:
    config = tmp_path / "hintgate.json"
    demo = {"command": sys.executable, "args": ["-m", "hintgate.demo"], "trust": "trusted"}
    policy = {"mode": "default", "approvalTimeout": 300}
    config.write_text(json.dumps({"mcpServers": {"demo": demo}, "timeouts": {"sessionIdle": 1}, "policy": policy}))
    env = {"HINTGATE_DATA_DIR": str(tmp_path / "data")}
    db = f"sqlite:///{tmp_path / 'h.db'}"
    with running_gateway("--config", str(config), "--db", db, env=env) as running:
        answered, statuses = await _modern_answer_after_the_idle_timeout(running)
    assert answered.is_error is False, answered
    assert statuses["later"] == "closed"
    assert statuses["asker"] == "active"


def test_a_handshake_session_listening_on_a_get_stream_is_kept_and_ends_once_the_stream_drops(
    tmp_path: Path,
) -> None:
    with gateway(tmp_path) as running, httpx.Client(timeout=WAIT, headers=running.headers) as http:
        listening = HandshakeClient(http, running.mcp_url, "listening")
        assert listening.post("tools/list").status_code == 200
        with http.stream("GET", running.mcp_url, headers=listening.headers()) as stream:
            assert stream.status_code == 200
            # A session opened after the stream goes quiet; once it has ended, the listening one
            # (quiet for longer) would have too, were its open stream not a request in flight.
            marker = HandshakeClient(http, running.mcp_url, "marker")
            assert marker.post("tools/list").status_code == 200
            until(
                lambda: (row := recorded(http, running, "marker")) and row["status"] == "closed",
                "the marker session is recorded closed",
            )
            kept = recorded(http, running, "listening")
        # The client went away without DELETE: its stream dropped, and the session ends after the timeout.
        ended = until(
            lambda: (row := recorded(http, running, "listening")) and row["status"] == "closed" and row,
            "the listening session is recorded closed once its stream dropped",
        )
        late = listening.post("tools/list")
    assert kept is not None
    assert kept["status"] == "active"
    assert ended["ended_at"] is not None
    assert late.status_code == 404
